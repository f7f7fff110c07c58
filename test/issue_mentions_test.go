package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestIssueMentionedByComments covers mentioned_by on GET R/issues: a user
// mentioned in a plain comment counts as mentioned, as in the issue's text.
func TestIssueMentionedByComments(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tracker"})
		for _, o := range []gitea.CreateIssueOption{
			{Title: "in the body", Body: "ping @bob"},
			{Title: "in a comment"},
			{Title: "nowhere"},
		} {
			_, _, err := alice.CreateIssue("alice", "tracker", o)
			is.NoErr(err)
		}
		_, _, err := alice.CreateIssueComment("alice", "tracker", 2, gitea.CreateIssueCommentOption{Body: "@Bob what do you think?"})
		is.NoErr(err)
		_, _, err = alice.CreateIssueComment("alice", "tracker", 3, gitea.CreateIssueCommentOption{Body: "no one here"})
		is.NoErr(err)
		list, _, err := alice.ListRepoIssues("alice", "tracker", gitea.ListIssueOption{MentionedBy: "bob", State: gitea.StateAll})
		is.NoErr(err)
		got := []int64{}
		for _, i := range list {
			got = append(got, i.Index)
		}
		is.Equal(got, []int64{2, 1})
	})
}
