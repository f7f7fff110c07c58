package test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// openTestIssue opens an issue through the API as the client's user.
func openTestIssue(t *testing.T, c *gitea.Client, owner, repo, title, body string) *gitea.Issue {
	t.Helper()
	i, _, err := c.CreateIssue(owner, repo, gitea.CreateIssueOption{Title: title, Body: body})
	if err != nil {
		t.Fatalf("create issue %q: %v", title, err)
	}
	return i
}

// postComment comments on issue index through the API.
func postComment(t *testing.T, c *gitea.Client, owner, repo string, index int64, body string) *gitea.Comment {
	t.Helper()
	cm, _, err := c.CreateIssueComment(owner, repo, index, gitea.CreateIssueCommentOption{Body: body})
	if err != nil {
		t.Fatalf("comment on #%d: %v", index, err)
	}
	return cm
}

// addTestCollaborator gives name the permission on owner/repo.
func addTestCollaborator(t *testing.T, c *gitea.Client, owner, repo, name string, perm gitea.AccessMode) {
	t.Helper()
	if _, err := c.AddCollaborator(owner, repo, name, gitea.AddCollaboratorOption{Permission: &perm}); err != nil {
		t.Fatalf("add collaborator %s: %v", name, err)
	}
}

// issueCommentCount reads the issue's comment counter.
func issueCommentCount(t *testing.T, c *gitea.Client, owner, repo string, index int64) int {
	t.Helper()
	i, _, err := c.GetIssue(owner, repo, index)
	if err != nil {
		t.Fatalf("get issue #%d: %v", index, err)
	}
	return i.Comments
}

func TestIssueComments(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
		addTestCollaborator(t, alice, "alice", "tools", "carol", gitea.AccessModeWrite)
		first := openTestIssue(t, alice, "alice", "tools", "first", "")
		const R = "/repos/alice/tools"

		t.Run("create, get and count", func(t *testing.T) {
			is := is.New(t)
			before := time.Now().Add(-time.Minute)
			c := postComment(t, bob, "alice", "tools", first.Index, "hello from bob")
			is.Equal(c.Body, "hello from bob")
			is.Equal(c.Poster.UserName, "bob")
			is.Equal(c.IssueURL, srv.URL+"/alice/tools/issues/"+formatID(first.Index))
			is.Equal(c.HTMLURL, c.IssueURL+"#issuecomment-"+formatID(c.ID))
			is.Equal(c.PRURL, "")
			is.True(c.Created.After(before))
			is.Equal(len(c.Attachments), 0)
			is.Equal(issueCommentCount(t, alice, "alice", "tools", first.Index), 1)

			got, _, err := alice.GetIssueComment("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(got.Body, "hello from bob")
			is.Equal(got.ID, c.ID)

			// The raw answer carries Gitea's every field, assets as an array.
			r := srv.Do("GET", R+"/issues/comments/"+formatID(c.ID), nil)
			is.Equal(r.Status, http.StatusOK)
			var raw map[string]any
			r.Decode(t, &raw)
			for _, k := range []string{"id", "html_url", "pull_request_url", "issue_url", "user", "original_author",
				"original_author_id", "body", "assets", "created_at", "updated_at"} {
				_, ok := raw[k]
				is.True(ok) // field present
			}
			is.Equal(raw["assets"], []any{})
		})

		t.Run("not found", func(t *testing.T) {
			c := postComment(t, alice, "alice", "tools", first.Index, "mine")
			elsewhere := openTestIssue(t, alice, "alice", "other", "elsewhere", "")
			oc := postComment(t, alice, "alice", "other", elsewhere.Index, "other repo")
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/999999", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/abc", nil), http.StatusNotFound, "")
			// A comment of another repository is not found through this one.
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/"+formatID(oc.ID), nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("PATCH", R+"/issues/comments/"+formatID(oc.ID), map[string]string{"body": "x"},
				adminHeader(srv)...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("DELETE", R+"/issues/comments/"+formatID(oc.ID), nil, adminHeader(srv)...),
				http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/999/comments", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", R+"/issues/999/comments", map[string]string{"body": "x"}, basicAs("bob")...),
				http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/nope/issues/comments/"+formatID(c.ID), nil), http.StatusNotFound, "")
		})

		t.Run("list issue and repository comments", func(t *testing.T) {
			is := is.New(t)
			i := openTestIssue(t, alice, "alice", "tools", "listing", "")
			var made []int64
			for k := range 3 {
				made = append(made, postComment(t, bob, "alice", "tools", i.Index, "c"+strconv.Itoa(k)).ID)
			}
			list, resp, err := alice.ListIssueComments("alice", "tools", i.Index, gitea.ListIssueCommentOptions{
				ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
			is.NoErr(err)
			is.Equal(len(list), 2)
			is.Equal(list[0].ID, made[0]) // oldest first
			is.Equal(resp.Header.Get("X-Total-Count"), "3")

			all, _, err := alice.ListRepoIssueComments("alice", "tools", gitea.ListIssueCommentOptions{
				ListOptions: gitea.ListOptions{Page: 1, PageSize: 50}})
			is.NoErr(err)
			seen := map[int64]bool{}
			for _, c := range all {
				seen[c.ID] = true
				is.True(c.IssueURL != "") // each names its issue
			}
			is.True(seen[made[0]] && seen[made[2]])

			// since keeps comments updated at or after it.
			future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
			r := srv.Do("GET", R+"/issues/comments?since="+url.QueryEscape(future), nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(string(r.Body), "[]\n")
			past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			r = srv.Do("GET", R+"/issues/"+formatID(i.Index)+"/comments?since="+url.QueryEscape(past), nil)
			is.Equal(r.Status, http.StatusOK)
			var got []gitea.Comment
			r.Decode(t, &got)
			is.Equal(len(got), 3)
			r = srv.Do("GET", R+"/issues/"+formatID(i.Index)+"/comments?before="+url.QueryEscape(past), nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(string(r.Body), "[]\n")

			assertAPIError(t, srv.Do("GET", R+"/issues/comments?since=yesterday", nil), http.StatusBadRequest, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/1/comments?before=2024-13-01", nil), http.StatusBadRequest, "")
		})

		t.Run("a page is its comments' own answers", func(t *testing.T) {
			// The pages are encoded by hand from a narrower read than one
			// comment's answer (encoding/json of every column): byte for
			// byte, a page is the answers of its comments, in order.
			is := is.New(t)
			i := openTestIssue(t, alice, "alice", "tools", "golden", "")
			var ids []int64
			for k, c := range []*gitea.Client{bob, alice, carol, bob, bob, alice} {
				ids = append(ids, postComment(t, c, "alice", "tools", i.Index, fmt.Sprintf("<b>%d</b> & \"x\"\n\tü", k)).ID)
			}
			_, _, err := alice.CreateIssueCommentAttachment("alice", "tools", ids[1], bytes.NewReader([]byte("log")), "log.txt")
			is.NoErr(err)
			one := func(id int64) string {
				r := srv.Do("GET", R+"/issues/comments/"+formatID(id), nil)
				is.Equal(r.Status, http.StatusOK)
				return strings.TrimSuffix(string(r.Body), "\n")
			}
			page := func(path string, ids []int64) {
				t.Helper()
				r := srv.Do("GET", path, nil)
				is.Equal(r.Status, http.StatusOK)
				want := make([]string, len(ids))
				for k, id := range ids {
					want[k] = one(id)
				}
				is.Equal(strings.TrimSuffix(string(r.Body), "\n"), "["+strings.Join(want, ",")+"]")
			}
			page(R+"/issues/"+formatID(i.Index)+"/comments", ids)
			page(R+"/issues/"+formatID(i.Index)+"/comments?page=2&limit=4", ids[4:])
			var all []gitea.Comment
			srv.Do("GET", R+"/issues/comments?limit=50", nil).Decode(t, &all)
			var repoIDs []int64
			for _, c := range all {
				repoIDs = append(repoIDs, c.ID)
			}
			page(R+"/issues/comments?limit=50", repoIDs)
		})

		t.Run("edit", func(t *testing.T) {
			is := is.New(t)
			c := postComment(t, bob, "alice", "tools", first.Index, "draft")
			path := R + "/issues/comments/" + formatID(c.ID)

			edited, _, err := bob.EditIssueComment("alice", "tools", c.ID, gitea.EditIssueCommentOption{Body: "final"})
			is.NoErr(err)
			is.Equal(edited.Body, "final")
			is.True(!edited.Updated.Before(c.Updated))
			// A writer may edit anyone's comment, through the deprecated form too.
			r := srv.Do("PATCH", R+"/issues/"+formatID(first.Index)+"/comments/"+formatID(c.ID),
				map[string]string{"body": "by carol"}, basicAs("carol")...)
			is.Equal(r.Status, http.StatusOK)
			var got gitea.Comment
			r.Decode(t, &got)
			is.Equal(got.Body, "by carol")
			is.Equal(got.Poster.UserName, "bob") // the poster stays

			assertAPIError(t, srv.Do("PATCH", path, map[string]string{"body": "x"}, basicAs("dave")...), http.StatusForbidden, "")
			assertAPIError(t, srv.Do("PATCH", path, map[string]string{"body": "x"}), http.StatusUnauthorized, "")
			assertInvalid(t, srv.Do("PATCH", path, map[string]string{"body": ""}, basicAs("bob")...), "Body")
			assertInvalid(t, srv.Do("PATCH", path, map[string]string{}, basicAs("bob")...), "Body")
			assertAPIError(t, srv.Do("PATCH", path, "{", basicAs("bob")...), http.StatusBadRequest, "")
			back, _, err := alice.GetIssueComment("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(back.Body, "by carol")
		})

		t.Run("create refuses", func(t *testing.T) {
			path := R + "/issues/" + formatID(first.Index) + "/comments"
			assertAPIError(t, srv.Do("POST", path, map[string]string{"body": "x"}), http.StatusUnauthorized, "")
			assertInvalid(t, srv.Do("POST", path, map[string]string{"body": "  "}, basicAs("bob")...), "Body")
			assertInvalid(t, srv.Do("POST", path, map[string]any{"body": 5}, basicAs("bob")...), "Body")
		})

		t.Run("delete", func(t *testing.T) {
			is := is.New(t)
			i := openTestIssue(t, alice, "alice", "tools", "deleting", "")
			c1 := postComment(t, bob, "alice", "tools", i.Index, "one")
			c2 := postComment(t, bob, "alice", "tools", i.Index, "two")
			is.Equal(issueCommentCount(t, alice, "alice", "tools", i.Index), 2)

			assertAPIError(t, srv.Do("DELETE", R+"/issues/comments/"+formatID(c1.ID), nil, basicAs("dave")...),
				http.StatusForbidden, "")
			assertAPIError(t, srv.Do("DELETE", R+"/issues/comments/"+formatID(c1.ID), nil), http.StatusUnauthorized, "")
			_, err := bob.DeleteIssueComment("alice", "tools", c1.ID)
			is.NoErr(err)
			is.Equal(issueCommentCount(t, alice, "alice", "tools", i.Index), 1)
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/"+formatID(c1.ID), nil), http.StatusNotFound, "")
			// The deprecated form, by a writer.
			r := srv.Do("DELETE", R+"/issues/"+formatID(i.Index)+"/comments/"+formatID(c2.ID), nil, basicAs("carol")...)
			is.Equal(r.Status, http.StatusNoContent)
			is.Equal(issueCommentCount(t, alice, "alice", "tools", i.Index), 0)
			assertAPIError(t, srv.Do("DELETE", R+"/issues/comments/"+formatID(c2.ID), nil, basicAs("carol")...),
				http.StatusNotFound, "")
		})

		t.Run("closed issue takes comments", func(t *testing.T) {
			is := is.New(t)
			i := openTestIssue(t, alice, "alice", "tools", "closing", "")
			closed := gitea.StateClosed
			_, _, err := alice.EditIssue("alice", "tools", i.Index, gitea.EditIssueOption{State: &closed})
			is.NoErr(err)
			c := postComment(t, bob, "alice", "tools", i.Index, "after the close")
			is.Equal(c.Body, "after the close")
			got, _, err := alice.GetIssue("alice", "tools", i.Index)
			is.NoErr(err)
			is.Equal(got.State, gitea.StateClosed) // commenting does not reopen
		})

		t.Run("locked issue", func(t *testing.T) {
			is := is.New(t)
			i := openTestIssue(t, alice, "alice", "tools", "heated", "")
			_, err := alice.LockIssue("alice", "tools", i.Index, gitea.LockIssueOption{LockReason: "Too heated"})
			is.NoErr(err)
			path := R + "/issues/" + formatID(i.Index) + "/comments"
			assertAPIError(t, srv.Do("POST", path, map[string]string{"body": "x"}, basicAs("bob")...),
				http.StatusForbidden, "You cannot comment on a locked issue.")
			postComment(t, carol, "alice", "tools", i.Index, "writers may") // a writer still may
			is.Equal(issueCommentCount(t, alice, "alice", "tools", i.Index), 1)
		})

		t.Run("private repository", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
			i := openTestIssue(t, alice, "alice", "secret", "hidden", "")
			c := postComment(t, alice, "alice", "secret", i.Index, "psst")
			const P = "/repos/alice/secret"
			for _, p := range []string{P + "/issues/comments", P + "/issues/comments/" + formatID(c.ID),
				P + "/issues/" + formatID(i.Index) + "/comments"} {
				assertAPIError(t, srv.Do("GET", p, nil), http.StatusNotFound, "")
				assertAPIError(t, srv.Do("GET", p, nil, basicAs("bob")...), http.StatusNotFound, "")
			}
			// Anonymous writes to a private repository are not found either (not 401).
			assertAPIError(t, srv.Do("POST", P+"/issues/"+formatID(i.Index)+"/comments", map[string]string{"body": "x"}),
				http.StatusNotFound, "")
			got, _, err := alice.GetIssueComment("alice", "secret", c.ID)
			is.NoErr(err)
			is.Equal(got.Body, "psst")
		})

		t.Run("issues disabled", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "quiet", AutoInit: true})
			i := openTestIssue(t, alice, "alice", "quiet", "before", "")
			c := postComment(t, alice, "alice", "quiet", i.Index, "before")
			off := false
			_, _, err := alice.EditRepo("alice", "quiet", gitea.EditRepoOption{HasIssues: &off})
			is.NoErr(err)
			const Q = "/repos/alice/quiet"
			// Pull requests are still on (and possible: the repository
			// has a commit): the repository's listing keeps their
			// comments only, as Gitea's does.
			r := srv.Do("GET", Q+"/issues/comments", nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(string(r.Body), "[]\n")
			assertAPIError(t, srv.Do("GET", Q+"/issues/comments/"+formatID(c.ID), nil, basicAs("bob")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", Q+"/issues/"+formatID(i.Index)+"/comments", map[string]string{"body": "x"},
				basicAs("bob")...), http.StatusNotFound, "")
			_, _, err = alice.EditRepo("alice", "quiet", gitea.EditRepoOption{HasPullRequests: &off})
			is.NoErr(err)
			assertAPIError(t, srv.Do("GET", Q+"/issues/comments", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", Q+"/issues/comments", nil, adminHeader(srv)...), http.StatusNotFound, "")
		})

		t.Run("archived repository", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "attic"})
			i := openTestIssue(t, alice, "alice", "attic", "old", "")
			c := postComment(t, alice, "alice", "attic", i.Index, "old")
			yes := true
			_, _, err := alice.EditRepo("alice", "attic", gitea.EditRepoOption{Archived: &yes})
			is.NoErr(err)
			const A = "/repos/alice/attic"
			assertAPIError(t, srv.Do("POST", A+"/issues/"+formatID(i.Index)+"/comments", map[string]string{"body": "x"},
				basicAs("alice")...), http.StatusLocked, "")
			assertAPIError(t, srv.Do("PATCH", A+"/issues/comments/"+formatID(c.ID), map[string]string{"body": "x"},
				basicAs("alice")...), http.StatusLocked, "")
			// Reading stays possible.
			list, _, err := alice.ListIssueComments("alice", "attic", i.Index, gitea.ListIssueCommentOptions{})
			is.NoErr(err)
			is.Equal(len(list), 1)
		})
	})
}

func formatID(n int64) string { return fmt.Sprint(n) }
