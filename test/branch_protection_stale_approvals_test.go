package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// approvedPull is a pull request of alice's into a protected main, approved
// by bob (a writer) before the push the tests make.
type approvedPull struct {
	srv      *testserver.Server
	r        *mergeRepo
	bob      *gitea.Client
	index    int64
	approval *gitea.PullReview
}

// newApprovedPull protects main with rule, opens a pull request from
// "feature" and has bob approve it.
func newApprovedPull(t *testing.T, srv *testserver.Server, c *gitea.Client, bob *gitea.Client, name string,
	rule gitea.CreateBranchProtectionOption) *approvedPull {
	t.Helper()
	r := newMergeRepo(t, srv, c, name)
	write := gitea.AccessModeWrite
	if _, err := c.AddCollaborator("alice", name, "bob", gitea.AddCollaboratorOption{Permission: &write}); err != nil {
		t.Fatalf("add bob: %v", err)
	}
	r.ahead(t, "feature")
	pr := r.open(t, "feature", "Feature", "")
	protectBranch(t, srv, "alice", name, rule)
	approval, _, err := bob.CreatePullReview("alice", name, pr.Index, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStateApproved, Body: "ok"})
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	return &approvedPull{srv: srv, r: r, bob: bob, index: pr.Index, approval: approval}
}

// pushToHead pushes one more commit to the head and waits for its check.
func (a *approvedPull) pushToHead(t *testing.T) {
	t.Helper()
	head := a.r.commit(t, "", "feature-more.txt", "more\n", "more")
	a.r.push(t, "feature")
	pr := waitPullChecked(t, a.srv, a.r.c, "alice", a.r.name, a.index)
	if pr.Head.Sha != head {
		t.Fatalf("head %s, want %s", pr.Head.Sha, head)
	}
}

// review reads bob's approval again.
func (a *approvedPull) review(t *testing.T) *gitea.PullReview {
	t.Helper()
	got, _, err := a.r.c.GetPullReview("alice", a.r.name, a.index, a.approval.ID)
	if err != nil {
		t.Fatalf("get review: %v", err)
	}
	return got
}

// merge asks to merge as alice and returns the status and message.
func (a *approvedPull) merge() (int, string) {
	res := a.srv.Do("POST", "/repos/alice/"+a.r.name+"/pulls/"+itoaTest(a.index)+"/merge",
		map[string]any{"Do": "merge"}, basicAs("alice")...)
	return res.Status, res.Message()
}

// TestBranchProtectionStaleApprovals pushes to the head of approved pull
// requests: dismiss_stale_approvals dismisses the approval (with Gitea's
// timeline message) so that it no longer counts, unless the push only took
// the base in; without it the approval is only stale, and counts unless
// ignore_stale_approvals says otherwise.
func TestBranchProtectionStaleApprovals(t *testing.T) {
	t.Parallel()
	srv, c := newMergeServer(t)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)

	t.Run("dismissed", func(t *testing.T) {
		is := is.New(t)
		a := newApprovedPull(t, srv, c, bob, "dismissing", gitea.CreateBranchProtectionOption{RuleName: "main",
			RequiredApprovals: 1, DismissStaleApprovals: true})
		is.True(!a.review(t).Dismissed)
		a.pushToHead(t)
		got := a.review(t)
		is.True(got.Dismissed)
		is.True(got.Stale)
		is.Equal(got.State, gitea.ReviewStateApproved)
		status, msg := a.merge()
		is.Equal(status, http.StatusMethodNotAllowed)
		is.Equal(msg, "Does not have enough approvals")
		timeline := srv.Do("GET", "/repos/alice/dismissing/issues/"+itoaTest(a.index)+"/timeline", nil, basicAs("alice")...)
		is.Equal(timeline.Status, http.StatusOK)
		is.True(strings.Contains(string(timeline.Body),
			"New commits pushed, approval review dismissed automatically according to repository settings"))
		// A new approval of the new head counts again.
		_, _, err := bob.CreatePullReview("alice", "dismissing", a.index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateApproved, Body: "again"})
		is.NoErr(err)
		status, _ = a.merge()
		is.Equal(status, http.StatusOK)
	})

	t.Run("base taken in", func(t *testing.T) {
		is := is.New(t)
		a := newApprovedPull(t, srv, c, bob, "updating", gitea.CreateBranchProtectionOption{RuleName: "main",
			EnablePush: true, RequiredApprovals: 1, DismissStaleApprovals: true})
		before := a.r.pull(t, a.index).Head.Sha
		a.r.branchFromMain(t, "main")
		a.r.commit(t, "", "main-only.txt", "main\n", "main moves")
		a.r.push(t, "main")
		// Merging the base into the head proposes nothing new: the
		// approval stays fresh, as in Gitea.
		res := updatePull(srv, "alice", "updating", a.index, "", "alice")
		is.Equal(res.Status, http.StatusOK)
		pr := waitPullChecked(t, srv, c, "alice", "updating", a.index)
		is.True(pr.Head.Sha != before)
		got := a.review(t)
		is.True(!got.Stale)
		is.True(!got.Dismissed)
		status, _ := a.merge()
		is.Equal(status, http.StatusOK)
	})

	t.Run("stale and counted", func(t *testing.T) {
		is := is.New(t)
		a := newApprovedPull(t, srv, c, bob, "staling", gitea.CreateBranchProtectionOption{RuleName: "main",
			RequiredApprovals: 1})
		a.pushToHead(t)
		got := a.review(t)
		is.True(got.Stale)
		is.True(!got.Dismissed)
		status, _ := a.merge()
		is.Equal(status, http.StatusOK)
	})

	t.Run("stale and ignored", func(t *testing.T) {
		is := is.New(t)
		a := newApprovedPull(t, srv, c, bob, "ignoring", gitea.CreateBranchProtectionOption{RuleName: "main",
			RequiredApprovals: 1})
		// The SDK's option lacks ignore_stale_approvals.
		res := srv.Do("PATCH", "/repos/alice/ignoring/branch_protections/main",
			map[string]any{"ignore_stale_approvals": true}, basicAs("alice")...)
		is.Equal(res.Status, http.StatusOK)
		is.True(strings.Contains(string(res.Body), `"ignore_stale_approvals":true`))
		a.pushToHead(t)
		got := a.review(t)
		is.True(got.Stale)
		is.True(!got.Dismissed)
		status, msg := a.merge()
		is.Equal(status, http.StatusMethodNotAllowed)
		is.Equal(msg, "Does not have enough approvals")
		_, _, err := bob.CreatePullReview("alice", "ignoring", a.index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateApproved, Body: "again"})
		is.NoErr(err)
		status, _ = a.merge()
		is.Equal(status, http.StatusOK)
	})
}
