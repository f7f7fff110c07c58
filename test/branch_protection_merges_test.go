package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestBranchProtectionMerges merges into a protected base: refused (405,
// Gitea's messages) until the required status succeeds, while the head is
// behind the base, and for a writer off the merge allowlist; a repository
// administrator's force_merge passes the conditions.
func TestBranchProtectionMerges(t *testing.T) {
	t.Parallel()
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "guarded")
	_, _ = newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	write := gitea.AccessModeWrite
	_, err := c.AddCollaborator("alice", r.name, "bob", gitea.AddCollaboratorOption{Permission: &write})
	if err != nil {
		t.Fatal(err)
	}
	_, head := r.ahead(t, "first")
	_, behindHead := r.ahead(t, "second")
	first := r.open(t, "first", "First", "")
	second := r.open(t, "second", "Second", "")
	protectBranch(t, srv, "alice", r.name, gitea.CreateBranchProtectionOption{RuleName: "main",
		EnableStatusCheck: true, StatusCheckContexts: []string{"c*"}, BlockOnOutdatedBranch: true,
		EnableMergeWhitelist: true, MergeWhitelistUsernames: []string{"alice"}})
	merge := func(user string, index int64, body map[string]any) (int, string) {
		res := srv.Do("POST", "/repos/alice/"+r.name+"/pulls/"+itoaTest(index)+"/merge", body, basicAs(user)...)
		return res.Status, res.Message()
	}

	t.Run("required status", func(t *testing.T) {
		is := is.New(t)
		status, msg := merge("alice", first.Index, map[string]any{"Do": "merge"})
		is.Equal(status, http.StatusMethodNotAllowed)
		is.Equal(msg, "Not all required status checks successful")
		r.status(t, head, gitea.StatusPending)
		status, _ = merge("alice", first.Index, map[string]any{"Do": "merge"})
		is.Equal(status, http.StatusMethodNotAllowed)
		r.status(t, head, gitea.StatusSuccess)
		status, msg = merge("bob", first.Index, map[string]any{"Do": "merge"})
		is.Equal(status, http.StatusMethodNotAllowed)
		is.Equal(msg, "User not allowed to merge PR")
		status, _ = merge("alice", first.Index, map[string]any{"Do": "merge"})
		is.Equal(status, http.StatusOK)
		is.True(r.pull(t, first.Index).HasMerged)
	})

	t.Run("outdated head and the admin override", func(t *testing.T) {
		is := is.New(t)
		r.status(t, behindHead, gitea.StatusSuccess)
		status, msg := merge("alice", second.Index, map[string]any{"Do": "merge"})
		is.Equal(status, http.StatusMethodNotAllowed)
		is.Equal(msg, "The head branch is behind the base branch")
		status, _ = merge("alice", second.Index, map[string]any{"Do": "merge", "force_merge": true})
		is.Equal(status, http.StatusOK)
		is.True(r.pull(t, second.Index).HasMerged)
	})
}

// TestBranchProtectionAutoMergeWaits schedules a merge into a branch whose
// rule requires two contexts: one success is not enough, the second merges.
func TestBranchProtectionAutoMergeWaits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "autoguard")
	_, head := r.ahead(t, "feature")
	pr := r.open(t, "feature", "Feature", "")
	protectBranch(t, srv, "alice", r.name, gitea.CreateBranchProtectionOption{RuleName: "main",
		EnableStatusCheck: true, StatusCheckContexts: []string{"ci", "deploy/*"}})
	r.status(t, head, gitea.StatusSuccess) // context ci
	r.schedule(t, pr.Index)
	r.stillUnmerged(t, pr.Index)
	_, _, err := c.CreateStatus("alice", r.name, head, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "deploy/staging"})
	is.NoErr(err)
	r.waitMerged(t, pr.Index)
}

// TestBranchProtectionRequiredApprovals blocks a merge until an official
// reviewer (a writer) approves, with Gitea's message.
func TestBranchProtectionRequiredApprovals(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "approved")
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	write := gitea.AccessModeWrite
	_, err := c.AddCollaborator("alice", r.name, "bob", gitea.AddCollaboratorOption{Permission: &write})
	is.NoErr(err)
	r.ahead(t, "feature")
	pr := r.open(t, "feature", "Feature", "")
	protectBranch(t, srv, "alice", r.name, gitea.CreateBranchProtectionOption{RuleName: "main", RequiredApprovals: 1,
		BlockOnRejectedReviews: true})
	res := srv.Do("POST", "/repos/alice/"+r.name+"/pulls/"+itoaTest(pr.Index)+"/merge", map[string]any{"Do": "merge"}, basicAs("alice")...)
	is.Equal(res.Status, http.StatusMethodNotAllowed)
	is.Equal(res.Message(), "Does not have enough approvals")
	_, _, err = bob.CreatePullReview("alice", r.name, pr.Index, gitea.CreatePullReviewOptions{State: gitea.ReviewStateApproved, Body: "ok"})
	is.NoErr(err)
	res = srv.Do("POST", "/repos/alice/"+r.name+"/pulls/"+itoaTest(pr.Index)+"/merge", map[string]any{"Do": "merge"}, basicAs("alice")...)
	is.Equal(res.Status, http.StatusOK)
}
