package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// carolClient is carol's client.
func carolClient(srv *testserver.Server) *gitea.Client {
	return srv.Client(gitea.SetBasicAuth("carol", userPassword))
}

func TestHookPullReviewEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, w := deliverySetup(t, opts...)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		write := gitea.AccessModeWrite
		for _, name := range []string{"bob", "carol"} {
			_, err := alice.AddCollaborator("alice", "repo", name, gitea.AddCollaboratorOption{Permission: &write})
			is.NoErr(err)
		}
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/pr", []string{"pull_request_only"}) // hears the opening only
		deliveryHook(t, alice, rec.URL+"/review", []string{"pull_request_review"})
		deliveryHook(t, alice, rec.URL+"/approved", []string{"pull_request_review_approved"})
		deliveryHook(t, alice, rec.URL+"/request", []string{"pull_request_review_request"})

		httpGitOK(t, w, "checkout", "-q", "-b", "feature")
		head := httpGitCommit(t, w, "feature.txt", "one\n", "feature work")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		pr, _, err := alice.CreatePullRequest("alice", "repo", gitea.CreatePullRequestOption{Head: "feature",
			Base: "main", Title: "Add feature"})
		is.NoErr(err)
		waitPullChecked(t, srv, alice, "alice", "repo", pr.Index)

		// review_requested
		_, err = alice.CreateReviewRequests("alice", "repo", pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{"bob"}})
		is.NoErr(err)
		got := rec.wait(t, "/request", 1)[0]
		hookIssueHeaders(t, got, "pull_request", "pull_request_review_request", "")
		p := deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "review_requested")
		is.Equal(p.Index, pr.Index)
		is.Equal(p.RequestedReviewer.UserName, "bob")
		is.Equal(p.Sender.UserName, "alice")
		is.Equal(p.PullRequest.Head.Sha, head)
		is.Equal(len(p.PullRequest.RequestedReviewers), 1) // the pull request as the API shows it
		is.Equal(p.PullRequest.RequestedReviewers[0].UserName, "bob")
		is.True(p.Review == nil)

		// approved: both the review hook and the approvals-only hook hear it.
		_, _, err = bob.CreatePullReview("alice", "repo", pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateApproved, Body: "ship it"})
		is.NoErr(err)
		for _, path := range []string{"/review", "/approved"} {
			got = rec.wait(t, path, 1)[0]
			hookIssueHeaders(t, got, "pull_request_approved", "pull_request_review_approved", "")
			p = deliveryDecode[hookPullPayload](t, got.Body)
			is.Equal(p.Action, "reviewed")
			is.Equal(p.Review.Type, "pull_request_review_approved")
			is.Equal(p.Review.Content, "ship it")
			is.Equal(p.Sender.UserName, "bob")
			is.Equal(p.RequestedReviewer.UserName, "bob")
			is.Equal(p.PullRequest.Index, pr.Index)
			is.Equal(p.Repository.FullName, "alice/repo")
		}

		// rejected, then a comment review
		_, _, err = bob.CreatePullReview("alice", "repo", pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateRequestChanges, Body: "wait"})
		is.NoErr(err)
		got = rec.wait(t, "/review", 2)[1]
		hookIssueHeaders(t, got, "pull_request_rejected", "pull_request_review_rejected", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Review.Type, "pull_request_review_rejected")
		is.Equal(p.Review.Content, "wait")
		_, _, err = bob.CreatePullReview("alice", "repo", pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateComment, Body: "a thought",
			Comments: []gitea.CreatePullReviewComment{{Path: "feature.txt", Body: "this line", NewLineNum: 1}}})
		is.NoErr(err)
		got = rec.wait(t, "/review", 3)[2]
		hookIssueHeaders(t, got, "pull_request_comment", "pull_request_review_comment", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Review.Type, "pull_request_review_comment")

		// review_request_removed
		_, err = alice.CreateReviewRequests("alice", "repo", pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{"carol"}})
		is.NoErr(err)
		_, err = alice.DeleteReviewRequests("alice", "repo", pr.Index, gitea.PullReviewRequestOptions{Reviewers: []string{"carol"}})
		is.NoErr(err)
		got = rec.wait(t, "/request", 3)[2]
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "review_request_removed")
		is.Equal(p.RequestedReviewer.UserName, "carol")

		// A pending review is no event, and then a comment review is the
		// fourth: the draft queued nothing before it.
		_, _, err = bob.CreatePullReview("alice", "repo", pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStatePending, Body: "later"})
		is.NoErr(err)
		_, _, err = carolClient(srv).CreatePullReview("alice", "repo", pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateComment, Body: "fourth"})
		is.NoErr(err)
		got = rec.wait(t, "/review", 4)[3]
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Review.Content, "fourth")
		is.Equal(p.Sender.UserName, "carol")
		is.Equal(len(rec.requests("/pr")), 1) // opened, and nothing of the reviews
	})
}
