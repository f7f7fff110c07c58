package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestPullListFollowsEveryChange asks for the same page of pull requests
// again after each kind of change that shows in it — the pull request's
// own fields, a label renamed, the poster's name, the repository's stars,
// a push into the base branch made behind the server's back (no write to
// the database at all) — and as another caller: a kept page is never
// answered once what it shows has changed, nor to a caller it was not
// built for.
func TestPullListFollowsEveryChange(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		w := pullsRepo(t, srv, aliceC, "app", false)
		label, _, err := aliceC.CreateLabel("alice", "app", gitea.CreateLabelOption{Name: "bug", Color: "#ff0000"})
		is.NoErr(err)
		alice, bob := basicAs("alice"), basicAs("bob")
		pullsOpen(t, srv, "alice", "app", map[string]any{"head": "feature", "base": "main", "title": "one",
			"labels": []int64{label.ID}}, alice...)
		first := func(header ...string) *gitea.PullRequest {
			t.Helper()
			r := srv.Do("GET", "/repos/alice/app/pulls?state=open&limit=10", nil, header...)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(r.Header.Get("X-Total-Count"), "1")
			var list []*gitea.PullRequest
			r.Decode(t, &list)
			is.Equal(len(list), 1)
			return list[0]
		}

		p := first(alice...)
		is.Equal(p.Title, "one")
		again := first(alice...) // the kept page
		is.Equal(again.Title, "one")
		is.Equal(again.Base.Sha, p.Base.Sha)
		is.Equal(again.Labels[0].Name, "bug")

		blockWant(t, srv, "PATCH", "/repos/alice/app/pulls/1", map[string]any{"title": "one, edited"}, http.StatusCreated, "", alice...)
		is.Equal(first(alice...).Title, "one, edited")

		_, _, err = aliceC.EditLabel("alice", "app", label.ID, gitea.EditLabelOption{Name: gitea.OptionalString("defect")})
		is.NoErr(err)
		is.Equal(first(alice...).Labels[0].Name, "defect")

		_, _, err = aliceC.UpdateUserSettings(gitea.UserSettingsOptions{FullName: gitea.OptionalString("Alice Liddell")})
		is.NoErr(err)
		is.Equal(first(alice...).Poster.FullName, "Alice Liddell")

		is.Equal(first(alice...).Base.Repository.Stars, 0)
		_, err = bobC.StarRepo("alice", "app")
		is.NoErr(err)
		is.Equal(first(alice...).Base.Repository.Stars, 1)

		// A push straight into the bare directory moves main without a
		// write to the database; the page shows main's new tip.
		gitRun(t, w, "checkout", "-q", "main")
		is.NoErr(os.WriteFile(filepath.Join(w, "later.txt"), []byte("later\n"), 0o644))
		gitRun(t, w, "add", "later.txt")
		gitRun(t, w, "commit", "-q", "-m", "later")
		gitRun(t, w, "push", "-q", repoDir(srv, "alice", "app"), "main")
		tip := strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD"))
		is.True(tip != p.Base.Sha)
		is.Equal(first(alice...).Base.Sha, tip)

		// Each caller gets the page built for them.
		is.True(first(alice...).Base.Repository.Permissions.Admin)
		is.True(!first(bob...).Base.Repository.Permissions.Admin)
		is.True(first(alice...).Base.Repository.Permissions.Admin)
		anonymous := first()
		is.True(anonymous.Base.Repository.Permissions == nil || !anonymous.Base.Repository.Permissions.Admin)
	})
}
