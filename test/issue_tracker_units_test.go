package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestIssueTrackerUnitsHidden is the regression test of a switched-off
// issues unit that still served its issues to the repository's owner.
//
// Gitea 1.27 puts every route under R/issues in one group guarded by
// mustEnableIssuesOrPulls (routers/api/v1/api.go): "if
// !ctx.Repo.Permission.CanRead(unit.TypeIssues) &&
// !(ctx.Repo.Repository.CanEnablePulls() &&
// ctx.Repo.Permission.CanRead(unit.TypePullRequests)) { APIErrorNotFound }",
// with CanEnablePulls "!repo.IsMirror && !repo.IsEmpty". CanRead answers
// AccessModeNone for a unit the repository does not have, whatever the
// caller's mode (models/perm/access/repo_permission.go, UnitAccessMode), so
// the owner and a site admin are refused like anyone: spec section 7, 404
// "instead of 403 … disabled features such as issues". Inside the group,
// ListIssues answers 404 for "type=issues" when issues are unreadable
// ("if isPull.Has() && !ctx.Repo.CanReadIssuesOrPulls(isPull.Value())"),
// lists only pull requests without a type, and GetIssue 404s an issue of an
// unreadable unit.
func TestIssueTrackerUnitsHidden(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		admin := srv.AdminClient()
		createRepo(t, alice, gitea.CreateRepoOption{Name: "r", AutoInit: true})
		i, _, err := alice.CreateIssue("alice", "r", gitea.CreateIssueOption{Title: "filed before"})
		is.New(t).NoErr(err)
		if _, _, err := alice.CreateIssueComment("alice", "r", i.Index, gitea.CreateIssueCommentOption{Body: "hi"}); err != nil {
			t.Fatal(err)
		}
		const P = "/repos/alice/r"
		no, yes := false, true
		callers := map[string][]string{"owner": basicAs("alice"), "site admin": adminHeader(srv), "anonymous": nil}
		issueRoutes := []string{P + "/issues/1", P + "/issues/1/comments", P + "/issues/1/labels",
			P + "/issues/1/reactions", P + "/issues/1/timeline", P + "/issues/1/subscriptions", P + "/issues/1/assets",
			P + "/issues/1/dependencies", P + "/issues/1/blocks"}

		t.Run("issues off, pull requests on", func(t *testing.T) {
			is := is.New(t)
			_, _, err := alice.EditRepo("alice", "r", gitea.EditRepoOption{HasIssues: &no})
			is.NoErr(err)
			for who, h := range callers {
				assertAPIError(t, srv.Do("GET", P+"/issues?type=issues", nil, h...), http.StatusNotFound, "")
				for _, p := range issueRoutes {
					r := srv.Do("GET", p, nil, h...)
					if r.Status != http.StatusNotFound {
						t.Fatalf("%s: GET %s = %d, want 404 (%s)", who, p, r.Status, r.Body)
					}
				}
				// Without a type the listing keeps the pull requests only.
				r := srv.Do("GET", P+"/issues?state=all", nil, h...)
				is.Equal(r.Status, http.StatusOK)
				var list []*gitea.Issue
				r.Decode(t, &list)
				is.Equal(len(list), 0)
				is.Equal(srv.Do("GET", P+"/issues?type=pulls", nil, h...).Status, http.StatusOK)
			}
			// The repository's time listings need the issues unit itself
			// (IssuesEnabled), after the row's T: the owner and the site
			// admin get 404, an anonymous caller 401.
			for _, p := range []string{P + "/times", P + "/times/alice"} {
				for _, h := range [][]string{basicAs("alice"), adminHeader(srv)} {
					assertAPIError(t, srv.Do("GET", p, nil, h...), http.StatusNotFound, "issues are disabled or not readable")
				}
				is.Equal(srv.Do("GET", p, nil).Status, http.StatusUnauthorized)
			}
			// Labels and milestones need the tracker only: pull requests keep them.
			is.Equal(srv.Do("GET", P+"/labels", nil, basicAs("alice")...).Status, http.StatusOK)
			is.Equal(srv.Do("GET", P+"/milestones", nil).Status, http.StatusOK)
			// The SDK's own calls as the owner and as the site admin.
			for _, c := range []*gitea.Client{alice, admin} {
				_, resp, err := c.GetIssue("alice", "r", i.Index)
				is.True(err != nil)
				is.Equal(resp.StatusCode, http.StatusNotFound)
				_, resp, err = c.ListRepoIssues("alice", "r", gitea.ListIssueOption{Type: gitea.IssueTypeIssue})
				is.True(err != nil)
				is.Equal(resp.StatusCode, http.StatusNotFound)
			}
		})

		t.Run("issues and pull requests off", func(t *testing.T) {
			is := is.New(t)
			_, _, err := alice.EditRepo("alice", "r", gitea.EditRepoOption{HasIssues: &no, HasPullRequests: &no})
			is.NoErr(err)
			group := append([]string{P + "/issues", P + "/issues/comments", P + "/issues/pinned",
				P + "/issues/1/times", P + "/issues/1/subscriptions/check"}, issueRoutes...)
			for who, h := range callers {
				for _, p := range group {
					r := srv.Do("GET", p, nil, h...)
					if r.Status != http.StatusNotFound {
						t.Fatalf("%s: GET %s = %d, want 404 (%s)", who, p, r.Status, r.Body)
					}
				}
				// The group's rule comes before the row's T: a hidden
				// tracker is 404 to an anonymous writer, not 401.
				for _, w := range []struct{ method, path string }{{"POST", P + "/issues"},
					{"POST", P + "/issues/1/comments"}, {"POST", P + "/issues/1/reactions"},
					{"POST", P + "/issues/1/times"}, {"PUT", P + "/issues/1/labels"}, {"PATCH", P + "/issues/1"}} {
					r := srv.Do(w.method, w.path, map[string]any{"title": "x", "body": "x", "content": "+1", "time": 1}, h...)
					if r.Status != http.StatusNotFound {
						t.Fatalf("%s: %s %s = %d, want 404 (%s)", who, w.method, w.path, r.Status, r.Body)
					}
				}
			}
			_, resp, err := admin.ListRepoIssues("alice", "r", gitea.ListIssueOption{})
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusNotFound)
		})

		t.Run("issues back on", func(t *testing.T) {
			is := is.New(t)
			_, _, err := alice.EditRepo("alice", "r", gitea.EditRepoOption{HasIssues: &yes, HasPullRequests: &yes})
			is.NoErr(err)
			got, _, err := alice.GetIssue("alice", "r", i.Index)
			is.NoErr(err)
			is.Equal(got.Title, "filed before")
			comments, _, err := admin.ListIssueComments("alice", "r", i.Index, gitea.ListIssueCommentOptions{})
			is.NoErr(err)
			is.Equal(len(comments), 1)
		})

		t.Run("empty repository takes no pull requests", func(t *testing.T) {
			is := is.New(t)
			// CanEnablePulls is false while the repository has no commit,
			// so an enabled pulls unit opens nothing once issues are off.
			createRepo(t, alice, gitea.CreateRepoOption{Name: "bare"})
			_, _, err := alice.EditRepo("alice", "bare", gitea.EditRepoOption{HasIssues: &no})
			is.NoErr(err)
			assertAPIError(t, srv.Do("GET", "/repos/alice/bare/issues", nil, basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/bare/issues/comments", nil, adminHeader(srv)...), http.StatusNotFound, "")
		})
	})
}
