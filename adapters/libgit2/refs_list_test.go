package libgit2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestRefsListRefsMatchesForEachRef(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	refsTagFixture(t, r)
	r.git(t, nil, "", "branch", "feature/x")
	r.git(t, nil, "", "notes", "add", "-m", "a note", "HEAD")
	r.push(t)
	r.bareGit(t, "update-ref", "refs/remotes/origin/main", "HEAD") // left out, as Gitea does
	r.bareGit(t, "update-ref", "refs/stash", "HEAD")
	r.bareGit(t, "pack-refs", "--all")
	r.bareGit(t, "update-ref", "refs/heads/loose", "HEAD") // loose and packed references alike

	for _, prefix := range []string{"", "refs/", "refs/heads", "refs/heads/", "refs/tags/a", "refs/tags/release/v3", "refs/notes"} {
		var want []string
		for _, line := range strings.Split(r.bareGit(t, "for-each-ref", "--format=%(refname) %(objectname) %(objecttype)"), "\n") {
			name := strings.Fields(line)[0]
			if strings.HasPrefix(name, prefix) && !strings.HasPrefix(name, "refs/remotes/") && name != "refs/stash" {
				want = append(want, line)
			}
		}
		refs, err := r.s.ListRefs(ctx, r.p, prefix)
		is.NoErr(err)
		var got []string
		for _, ref := range refs {
			got = append(got, ref.Name+" "+ref.ObjectID+" "+ref.ObjectType)
		}
		is.Equal(got, want) // prefix
	}

	refs, err := r.s.ListRefs(ctx, r.p, "refs/nothing")
	is.NoErr(err)
	is.Equal(len(refs), 0)
}

func TestRefsListRefsOfEmptyRepository(t *testing.T) {
	is := is.New(t)
	r := refsFixture(t)
	refs, err := r.s.ListRefs(context.Background(), r.p, "")
	is.NoErr(err)
	is.Equal(len(refs), 0)
}
