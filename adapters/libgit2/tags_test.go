package libgit2_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// refsTagFixture makes three commits and a mix of lightweight and annotated
// tags, some with the same target date, and returns the commit ids.
func refsTagFixture(t *testing.T, r *refsRepo) []string {
	t.Helper()
	c1 := r.commit(t, "one", "2020-01-01T00:00:00Z")
	c2 := r.commit(t, "two", "2020-01-02T00:00:00Z")
	c3 := r.commit(t, "three", "2020-01-03T00:00:00Z")
	tagEnv := []string{"GIT_COMMITTER_DATE=2021-06-01T00:00:00Z"}
	r.git(t, nil, "", "tag", "light-old", c1)
	r.git(t, tagEnv, "", "tag", "-a", "-m", "mid", "ann-mid", c2)
	r.git(t, nil, "", "tag", "light-new", c3)
	r.git(t, tagEnv, "", "tag", "-a", "-m", "old", "ann-old", c1)
	r.git(t, tagEnv, "", "tag", "-a", "-m", "also mid", "also-mid", c2)
	r.git(t, tagEnv, "", "tag", "-a", "-m", "release\n\nnotes", "release/v3", c3)
	r.push(t)
	return []string{c1, c2, c3}
}

func TestRefsListTagsInGiteaOrder(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	refsTagFixture(t, r)

	// Gitea lists tags with git for-each-ref --sort=-*creatordate: git is the oracle.
	want := strings.Split(r.bareGit(t, "for-each-ref", "--sort=-*creatordate", "--format=%(refname:strip=2)", "refs/tags"), "\n")
	var got []string
	for page := 1; ; page++ {
		list, total, err := r.s.ListTags(ctx, r.p, ports.ListOptions{Page: page, Limit: 4})
		is.NoErr(err)
		is.Equal(total, int64(6))
		if len(list) == 0 {
			break
		}
		for _, tag := range list {
			got = append(got, tag.Name)
		}
	}
	is.Equal(got, want)
}

func TestRefsTagDetails(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	c := refsTagFixture(t, r)

	ann, err := r.s.Tag(ctx, r.p, "release/v3")
	is.NoErr(err)
	is.True(ann.Annotated)
	is.Equal(ann.ID, r.bareGit(t, "rev-parse", "refs/tags/release/v3"))
	is.Equal(ann.ObjectID, c[2])
	is.Equal(ann.ObjectType, "commit")
	is.Equal(ann.CommitID, c[2])
	is.Equal(ann.Message, "release\n\nnotes\n")
	is.Equal(ann.Tagger.Name, "Tagger")
	is.True(ann.Tagger.When.Equal(time.Date(2021, 6, 1, 0, 0, 0, 0, time.UTC)))

	light, err := r.s.Tag(ctx, r.p, "light-old")
	is.NoErr(err)
	is.True(!light.Annotated)
	is.Equal(light.ID, c[0])
	is.Equal(light.ObjectID, c[0])
	is.Equal(light.CommitID, c[0])
	is.Equal(light.Message, "one\n") // a lightweight tag shows its commit's message and committer
	is.True(light.Tagger.When.Equal(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)))

	for _, absent := range []string{"nope", "release", "a..b", ""} {
		_, err = r.s.Tag(ctx, r.p, absent)
		is.True(errors.Is(err, errs.ErrNotFound))
	}

	byID, err := r.s.AnnotatedTag(ctx, r.p, ann.ID)
	is.NoErr(err)
	is.Equal(byID.Name, "release/v3")
	is.Equal(byID.CommitID, c[2])
	_, err = r.s.AnnotatedTag(ctx, r.p, c[0]) // a commit is not a tag object
	is.True(errors.Is(err, errs.ErrBadRequest))
	_, err = r.s.AnnotatedTag(ctx, r.p, "abc")
	is.True(errors.Is(err, errs.ErrBadRequest))
	_, err = r.s.AnnotatedTag(ctx, r.p, strings.Repeat("a", 40))
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestRefsCreateAndDeleteTags(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	c1 := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "branch", "dir/x")
	r.push(t)

	light, err := r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "v1", CommitID: c1})
	is.NoErr(err)
	is.True(!light.Annotated)
	is.Equal(light.ID, c1)
	is.Equal(r.bareGit(t, "cat-file", "-t", "refs/tags/v1"), "commit")
	is.Equal(r.bareGit(t, "rev-parse", "refs/tags/v1"), c1)

	when := time.Date(2024, 5, 1, 12, 0, 0, 0, time.FixedZone("", 2*3600))
	ann, err := r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "release/v2", CommitID: c1,
		Message: "  Release 2  \n\n\n body line \n\n", Tagger: ports.GitSignature{Name: "Alice <x>", Email: "alice@example.com", When: when}})
	is.NoErr(err)
	is.True(ann.Annotated)
	is.Equal(r.bareGit(t, "cat-file", "-t", "refs/tags/release/v2"), "tag")
	is.Equal(ann.ID, r.bareGit(t, "rev-parse", "refs/tags/release/v2"))
	is.Equal(r.bareGit(t, "cat-file", "-p", ann.ID), "object "+c1+"\ntype commit\ntag release/v2\n"+
		"tagger Alice x <alice@example.com> 1714557600 +0200\n\n  Release 2\n\n body line")
	is.Equal(ann.Message, "  Release 2\n\n body line\n")
	r.bareGit(t, "fsck", "--strict")

	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "v1", CommitID: c1})
	refsKind(t, err, ports.RefExists)
	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "v1", CommitID: c1, Message: "again", Tagger: alice})
	refsKind(t, err, ports.RefExists)
	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "release", CommitID: c1})
	refsKind(t, err, ports.RefNameClash)
	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "bad..name", CommitID: c1})
	is.True(hasField(t, err, "TagName"))
	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "v9", CommitID: strings.Repeat("2", 40)})
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.CreateTag(ctx, r.p, ports.GitNewTag{Name: "v9", CommitID: c1, Message: "m"})
	is.True(hasField(t, err, "tagger"))

	old, err := r.s.DeleteTag(ctx, r.p, "release/v2")
	is.NoErr(err)
	is.Equal(old, ann.ID)
	_, err = r.s.DeleteTag(ctx, r.p, "release/v2")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(r.bareGit(t, "for-each-ref", "--format=%(refname)", "refs/tags"), "refs/tags/v1")
}

func TestRefsCreateTagConcurrentlyOnlyOneWins(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	c1 := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.push(t)

	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins []string
	)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(annotated bool) {
			defer wg.Done()
			nt := ports.GitNewTag{Name: "race", CommitID: c1}
			if annotated {
				nt.Message, nt.Tagger = "m", alice
			}
			tag, err := r.s.CreateTag(ctx, r.p, nt)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins = append(wins, tag.ID)
			case !errors.Is(err, errs.ErrConflict):
				t.Errorf("unexpected error: %v", err)
			}
		}(i%2 == 0)
	}
	wg.Wait()
	is.Equal(len(wins), 1)
	is.Equal(r.bareGit(t, "rev-parse", "refs/tags/race"), wins[0])
}

func TestRefsListTagsOfEmptyRepository(t *testing.T) {
	is := is.New(t)
	r := refsFixture(t)
	list, total, err := r.s.ListTags(context.Background(), r.p, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(list), 0)
	is.Equal(total, int64(0))
}
