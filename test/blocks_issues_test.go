package test

import (
	"net/http"
	"strconv"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestBlocksIssues: a block unassigns the blocked user from the blocker's
// issues, and the blocked user may then neither open issues on the
// blocker's repositories nor comment on the blocker's issues (Gitea's 403
// "user is blocked"); others are unaffected.
func TestBlocksIssues(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "ar"})
		createRepo(t, carolC, gitea.CreateRepoOption{Name: "cr"})
		blockCollab(t, srv, "alice", "alice", "ar", "bob")

		assigned := createIssueOK(t, aliceC, "alice", "ar", gitea.CreateIssueOption{Title: "for bob", Assignees: []string{"bob"}})
		is.Equal(len(assigned.Assignees), 1)
		carolIssue := createIssueOK(t, carolC, "carol", "cr", gitea.CreateIssueOption{Title: "carol's"})
		// alice comments on carol's issue before anything is blocked.
		blockWant(t, srv, "POST", "/repos/carol/cr/issues/1/comments", map[string]string{"body": "hi"},
			http.StatusCreated, "", basicAs("alice")...)

		blockWant(t, srv, "PUT", "/user/blocks/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
		got, _, err := aliceC.GetIssue("alice", "ar", assigned.Index)
		is.NoErr(err)
		is.Equal(len(got.Assignees), 0) // unassigned by the block

		blockWant(t, srv, "POST", "/repos/alice/ar/issues", map[string]string{"title": "let me in"},
			http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
		blockWant(t, srv, "POST", "/repos/alice/ar/issues/1/comments", map[string]string{"body": "me too"},
			http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
		// carol's repository is open to bob; an issue alice posted there is not.
		blockWant(t, srv, "POST", "/repos/carol/cr/issues", map[string]string{"title": "fine"},
			http.StatusCreated, "", basicAs("bob")...)
		blockWant(t, srv, "POST", "/repos/carol/cr/issues/1/comments", map[string]string{"body": "fine"},
			http.StatusCreated, "", basicAs("bob")...)
		alicesIssue := createIssueOK(t, aliceC, "carol", "cr", gitea.CreateIssueOption{Title: "alice's"})
		blockWant(t, srv, "POST", "/repos/carol/cr/issues/"+strconv.FormatInt(alicesIssue.Index, 10)+"/comments",
			map[string]string{"body": "no"}, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
		// Nothing was written by the refused requests.
		open, _, err := aliceC.ListRepoIssues("alice", "ar", gitea.ListIssueOption{})
		is.NoErr(err)
		is.Equal(len(open), 1)
		is.Equal(open[0].Comments, 0)
		_ = carolIssue

		// Unblocked, bob may open issues again.
		blockWant(t, srv, "DELETE", "/user/blocks/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
		blockWant(t, srv, "POST", "/repos/alice/ar/issues", map[string]string{"title": "back"},
			http.StatusCreated, "", basicAs("bob")...)
	})
}
