package test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// reviewFixture is alice's repository with a pull request from "feature"
// (two new files, feature-b.txt and feature-c.txt) and bob, a writer.
type reviewFixture struct {
	srv   *testserver.Server
	repo  *mergeRepo
	alice *gitea.Client
	bob   *gitea.Client
	pr    *gitea.PullRequest
}

// newReviewFixture sets the fixture up on a fresh server.
func newReviewFixture(t *testing.T, opts ...testserver.Option) *reviewFixture {
	t.Helper()
	srv, alice := newMergeServer(t, opts...)
	r := newMergeRepo(t, srv, alice, "reviewed")
	r.ahead(t, "feature")
	pr := r.open(t, "feature", "Feature", "please review")
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	write := gitea.AccessModeWrite
	if _, err := alice.AddCollaborator("alice", "reviewed", "bob", gitea.AddCollaboratorOption{Permission: &write}); err != nil {
		t.Fatalf("add bob: %v", err)
	}
	return &reviewFixture{srv: srv, repo: r, alice: alice, bob: bob, pr: pr}
}

// post sends a JSON body as user and returns the status and body.
func (f *reviewFixture) post(t *testing.T, user, path, body string) (int, string) {
	t.Helper()
	resp := f.srv.Do("POST", "/repos/alice/reviewed/pulls/"+itoaTest(f.pr.Index)+path, body, basicAs(user)...)
	return resp.Status, string(resp.Body)
}

func TestPullReviews(t *testing.T) {
	t.Parallel()
	testPullReviews(t)
}

func TestPullReviewsPostgres(t *testing.T) {
	t.Parallel()
	testPullReviews(t, testserver.OnPostgres())
}

func testPullReviews(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	f := newReviewFixture(t, opts...)
	idx := f.pr.Index

	// Nobody approves or rejects their own pull request.
	status, body := f.post(t, "alice", "/reviews", `{"event":"APPROVED"}`)
	is.Equal(status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(body, "approve your own pull is not allowed"))
	status, body = f.post(t, "alice", "/reviews", `{"event":"REQUEST_CHANGES","body":"no"}`)
	is.Equal(status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(body, "reject your own pull is not allowed"))
	// A comment outside the diff, and a comment review with nothing in it.
	status, body = f.post(t, "bob", "/reviews",
		`{"event":"COMMENT","comments":[{"path":"feature-c.txt","body":"x","new_position":9}]}`)
	is.Equal(status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(body, "not part of the pull request's diff"))
	status, _ = f.post(t, "bob", "/reviews",
		`{"event":"COMMENT","comments":[{"path":"README.md","body":"x","new_position":1}]}`)
	is.Equal(status, http.StatusUnprocessableEntity)
	status, _ = f.post(t, "bob", "/reviews", `{"event":"COMMENT"}`)
	is.Equal(status, http.StatusUnprocessableEntity)

	// A comment review with a line comment.
	commented, _, err := f.bob.CreatePullReview("alice", "reviewed", idx, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStateComment, Body: "a few notes",
		Comments: []gitea.CreatePullReviewComment{{Path: "feature-c.txt", Body: "why c?", NewLineNum: 1}}})
	is.NoErr(err)
	is.Equal(commented.State, gitea.ReviewStateComment)
	is.Equal(commented.Reviewer.UserName, "bob")
	is.Equal(commented.CodeCommentsCount, 1)
	is.Equal(commented.Body, "a few notes")
	is.Equal(commented.CommitID, f.pr.Head.Sha)
	is.True(!commented.Official) // only verdicts are official
	is.True(strings.HasSuffix(commented.HTMLPullURL, "/alice/reviewed/pulls/"+itoaTest(idx)))
	is.True(strings.Contains(commented.HTMLURL, "#issuecomment-"))

	comments, _, err := f.alice.ListPullReviewComments("alice", "reviewed", idx, commented.ID)
	is.NoErr(err)
	is.Equal(len(comments), 1)
	is.Equal(comments[0].Path, "feature-c.txt")
	is.Equal(comments[0].Body, "why c?")
	is.Equal(comments[0].LineNum, uint64(1))
	is.Equal(comments[0].OldLineNum, uint64(0))
	is.Equal(comments[0].ReviewID, commented.ID)
	is.Equal(comments[0].Reviewer.UserName, "bob")
	is.Equal(comments[0].CommitID, f.pr.Head.Sha)
	is.True(strings.HasPrefix(comments[0].DiffHunk, "@@ -0,0 +1,1 @@"))
	is.True(strings.Contains(comments[0].DiffHunk, "+c"))

	// A pending review shows to its author only.
	pending, _, err := f.bob.CreatePullReview("alice", "reviewed", idx, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStatePending, Body: "thinking",
		Comments: []gitea.CreatePullReviewComment{{Path: "feature-b.txt", Body: "b?", NewLineNum: 1}}})
	is.NoErr(err)
	is.Equal(pending.State, gitea.ReviewStatePending)
	_, resp, _ := f.alice.GetPullReview("alice", "reviewed", idx, pending.ID)
	is.Equal(resp.StatusCode, http.StatusNotFound)
	all, _, err := f.alice.ListPullReviews("alice", "reviewed", idx, gitea.ListPullReviewsOptions{})
	is.NoErr(err)
	is.Equal(len(all), 1)
	mine, _, err := f.bob.ListPullReviews("alice", "reviewed", idx, gitea.ListPullReviewsOptions{})
	is.NoErr(err)
	is.Equal(len(mine), 2)

	// Submitted as an approval: official (bob writes), not stale.
	approved, _, err := f.bob.SubmitPullReview("alice", "reviewed", idx, pending.ID, gitea.SubmitPullReviewOptions{
		State: gitea.ReviewStateApproved, Body: "lgtm"})
	is.NoErr(err)
	is.Equal(approved.ID, pending.ID)
	is.Equal(approved.State, gitea.ReviewStateApproved)
	is.True(approved.Official)
	is.True(!approved.Stale)
	is.Equal(approved.CodeCommentsCount, 1)
	// Only a pending review is submitted.
	status, body = f.post(t, "bob", "/reviews/"+itoaTest(approved.ID), `{"event":"COMMENT","body":"again"}`)
	is.Equal(status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(body, "only a pending review can be submitted"))
	got, _, err := f.alice.GetPullReview("alice", "reviewed", idx, approved.ID)
	is.NoErr(err)
	is.Equal(got.State, gitea.ReviewStateApproved)

	// Dismissals are for repository administrators.
	resp, _ = f.bob.DismissPullReview("alice", "reviewed", idx, approved.ID, gitea.DismissPullReviewOptions{Message: "no"})
	is.Equal(resp.StatusCode, http.StatusForbidden)
	resp, err = f.alice.DismissPullReview("alice", "reviewed", idx, approved.ID, gitea.DismissPullReviewOptions{Message: "too early"})
	is.NoErr(err)
	got, _, _ = f.alice.GetPullReview("alice", "reviewed", idx, approved.ID)
	is.True(got.Dismissed)
	_, err = f.alice.UnDismissPullReview("alice", "reviewed", idx, approved.ID)
	is.NoErr(err)
	got, _, _ = f.alice.GetPullReview("alice", "reviewed", idx, approved.ID)
	is.True(!got.Dismissed)
	// A comment review is no verdict to dismiss.
	resp, _ = f.alice.DismissPullReview("alice", "reviewed", idx, commented.ID, gitea.DismissPullReviewOptions{Message: "x"})
	is.Equal(resp.StatusCode, http.StatusForbidden)

	// The timeline shows the reviews and the dismissal, not the code comments.
	timeline, _, err := f.alice.ListIssueTimeline("alice", "reviewed", idx, gitea.ListIssueCommentOptions{})
	is.NoErr(err)
	var kinds []string
	for _, e := range timeline {
		switch e.Type {
		case "review", "dismiss_review", "code":
			kinds = append(kinds, e.Type)
		}
	}
	is.Equal(kinds, []string{"review", "review", "dismiss_review"})

	// A push to the head makes the approval stale.
	f.repo.branchFromMain(t, "feature")
	f.repo.git(t, "reset", "-q", "--hard", f.pr.Head.Sha)
	f.repo.commit(t, "", "README.md", "rewritten\n", "rewrite the readme")
	f.repo.push(t, "feature")
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, _, err = f.alice.GetPullReview("alice", "reviewed", idx, approved.ID)
		is.NoErr(err)
		if got.Stale {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the approval did not go stale after a push")
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A comment on the old side of the diff: a line the push removed.
	var old *gitea.PullReview
	deadline = time.Now().Add(20 * time.Second)
	for {
		var resp *gitea.Response
		old, resp, err = f.bob.CreatePullReview("alice", "reviewed", idx, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateComment, Comments: []gitea.CreatePullReviewComment{
				{Path: "README.md", Body: "why remove this?", OldLineNum: 1}}})
		if err == nil {
			break
		}
		// The new head reaches the pull request with its check.
		if resp == nil || resp.StatusCode != http.StatusUnprocessableEntity || time.Now().After(deadline) {
			t.Fatalf("old-side comment: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	comments, _, err = f.alice.ListPullReviewComments("alice", "reviewed", idx, old.ID)
	is.NoErr(err)
	is.Equal(len(comments), 1)
	is.Equal(comments[0].OldLineNum, uint64(1))
	is.Equal(comments[0].LineNum, uint64(0))
	is.True(strings.HasPrefix(comments[0].DiffHunk, "@@ -1,1 +"))
	is.True(strings.Contains(comments[0].DiffHunk, "\n-"))

	// Deleting: the reviewer may, others may not.
	resp, _ = f.alice.DeletePullReview("alice", "reviewed", idx, commented.ID)
	is.Equal(resp.StatusCode, http.StatusForbidden)
	_, err = f.bob.DeletePullReview("alice", "reviewed", idx, commented.ID)
	is.NoErr(err)
	_, resp, _ = f.bob.GetPullReview("alice", "reviewed", idx, commented.ID)
	is.Equal(resp.StatusCode, http.StatusNotFound)
	all, _, err = f.alice.ListPullReviews("alice", "reviewed", idx, gitea.ListPullReviewsOptions{})
	is.NoErr(err)
	is.Equal(len(all), 2) // the approval and the old-side comment
}
