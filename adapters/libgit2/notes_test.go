package libgit2_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func TestRefsNoteAndItsLastChange(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	c1 := r.commit(t, "one", "2020-01-01T00:00:00Z")
	c2 := r.commit(t, "two", "2020-01-02T00:00:00Z")
	c3 := r.commit(t, "three", "2020-01-03T00:00:00Z")

	_, err := r.s.Note(ctx, r.p, c1) // no notes at all yet
	is.True(errors.Is(err, errs.ErrNotFound))

	r.git(t, nil, "", "notes", "add", "-m", "first note", c1)
	firstNotes := r.git(t, nil, "", "rev-parse", "refs/notes/commits")
	r.git(t, nil, "", "notes", "add", "-m", "second note\nline two", c2)
	r.push(t)

	n, err := r.s.Note(ctx, r.p, c1)
	is.NoErr(err)
	is.Equal(n.Message, "first note\n")
	// The commit is the notes commit that last changed this note, as in Gitea.
	is.Equal(n.Commit.ID, firstNotes)
	is.Equal(n.Changes, []ports.GitNoteChange{{Path: c1, Status: "added"}})
	is.Equal(n.Additions, 1)
	is.Equal(n.Deletions, 0)

	n, err = r.s.Note(ctx, r.p, strings.ToUpper(c2))
	is.NoErr(err)
	is.Equal(n.Message, "second note\nline two\n")
	is.Equal(n.Commit.ID, r.bareGit(t, "rev-parse", "refs/notes/commits"))
	is.Equal(n.Additions, 2)

	r.git(t, nil, "", "notes", "add", "-f", "-m", "first note, edited", c1)
	r.push(t)
	n, err = r.s.Note(ctx, r.p, c1)
	is.NoErr(err)
	is.Equal(n.Commit.ID, r.bareGit(t, "rev-parse", "refs/notes/commits"))
	is.Equal(n.Changes, []ports.GitNoteChange{{Path: c1, Status: "modified"}})
	is.Equal([]int{n.Additions, n.Deletions}, []int{1, 1})

	_, err = r.s.Note(ctx, r.p, c3)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.Note(ctx, r.p, "main")
	is.True(errors.Is(err, errs.ErrNotFound)) // the adapter takes full ids only
}

func TestRefsNoteInFanOutTree(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	c1 := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.push(t)

	// git notes spreads notes over ab/cdef… directories once there are
	// many; build such a tree by hand.
	blob := refsGitIn(t, r.bare, nil, "fanned out\n", "hash-object", "-w", "--stdin")
	sub := refsGitIn(t, r.bare, nil, "100644 blob "+blob+"\t"+c1[2:]+"\n", "mktree")
	root := refsGitIn(t, r.bare, nil, "040000 tree "+sub+"\t"+c1[:2]+"\n", "mktree")
	notes := refsGitIn(t, r.bare, nil, "", "commit-tree", root, "-m", "Notes added by hand")
	r.bareGit(t, "update-ref", "refs/notes/commits", notes)
	is.Equal(r.bareGit(t, "notes", "show", c1), "fanned out") // git agrees the note is there

	n, err := r.s.Note(ctx, r.p, c1)
	is.NoErr(err)
	is.Equal(n.Message, "fanned out\n")
	is.Equal(n.Commit.ID, notes)
	is.Equal(n.Changes, []ports.GitNoteChange{{Path: c1[:2] + "/" + c1[2:], Status: "added"}})
}
