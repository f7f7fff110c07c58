package test

import (
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// status reports a commit status on sha as alice.
func (r *mergeRepo) status(t *testing.T, sha string, state gitea.StatusState) {
	t.Helper()
	if _, _, err := r.c.CreateStatus("alice", r.name, sha, gitea.CreateStatusOption{State: state, Context: "ci"}); err != nil {
		t.Fatalf("create status: %v", err)
	}
}

// schedule asks for a merge when the checks succeed and expects 201.
func (r *mergeRepo) schedule(t *testing.T, index int64) {
	t.Helper()
	if code := r.merge(t, r.c, index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, MergeWhenChecksSucceed: true}); code != 201 {
		t.Fatalf("schedule merge answered %d", code)
	}
	if r.pull(t, index).HasMerged {
		t.Fatalf("scheduled merge merged at once")
	}
}

// waitMerged polls until the pull request is merged.
func (r *mergeRepo) waitMerged(t *testing.T, index int64) *gitea.PullRequest {
	t.Helper()
	var pr *gitea.PullRequest
	testkit.Eventually(t, "the scheduled merge", func() bool {
		pr = r.pull(t, index)
		return pr.HasMerged
	})
	return pr
}

// stillUnmerged waits a while and checks the pull request did not merge.
func (r *mergeRepo) stillUnmerged(t *testing.T, index int64) {
	t.Helper()
	time.Sleep(1500 * time.Millisecond)
	if r.pull(t, index).HasMerged {
		t.Fatalf("pull request #%d merged", index)
	}
}

// cancel sends DELETE R/pulls/{index}/merge as user and returns the status.
func (r *mergeRepo) cancel(t *testing.T, user string, index int64) int {
	t.Helper()
	return r.srv.Do("DELETE", "/repos/alice/"+r.name+"/pulls/"+itoaTest(index)+"/merge", nil, basicAs(user)...).Status
}

// TestPullAutoMerge schedules merges for when the head's checks succeed:
// the success merges, a push to the head cancels, DELETE cancels.
func TestPullAutoMerge(t *testing.T) {
	t.Parallel()
	testPullAutoMerge(t)
}

func TestPullAutoMergePostgres(t *testing.T) {
	t.Parallel()
	testPullAutoMerge(t, testserver.OnPostgres())
}

func testPullAutoMerge(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv, c := newMergeServer(t, opts...)
	r := newMergeRepo(t, srv, c, "auto")
	_, _ = newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	write := gitea.AccessModeWrite
	_, err := c.AddCollaborator("alice", r.name, "bob", gitea.AddCollaboratorOption{Permission: &write})
	is.NoErr(err)

	// Pending, then success: merged by the job.
	_, head := r.ahead(t, "ci")
	pr := r.open(t, "ci", "Wait for CI", "")
	r.status(t, head, gitea.StatusPending)
	r.schedule(t, pr.Index)
	r.stillUnmerged(t, pr.Index)
	r.status(t, head, gitea.StatusSuccess)
	got := r.waitMerged(t, pr.Index)
	is.Equal(got.MergedBy.UserName, "alice")
	tip := r.fetchedMain(t)
	is.Equal(*got.MergedCommitID, tip)
	is.Equal(r.git(t, "rev-parse", tip+"^2"), head)
	is.Equal(r.cancel(t, "alice", pr.Index), 404)

	// A push to the head cancels it.
	_, head = r.ahead(t, "pushed")
	pr = r.open(t, "pushed", "Pushed again", "")
	r.status(t, head, gitea.StatusPending)
	r.schedule(t, pr.Index)
	r.git(t, "checkout", "-q", "pushed")
	moved := r.commit(t, "", "more.txt", "more\n", "more work")
	r.push(t, "pushed")
	testkit.Eventually(t, "the push to cancel the scheduled merge", func() bool { return r.cancel(t, "bob", pr.Index) == 404 })
	r.status(t, head, gitea.StatusSuccess)
	r.status(t, moved, gitea.StatusSuccess)
	r.stillUnmerged(t, pr.Index)

	// DELETE cancels it: not another writer, and only once.
	_, head = r.ahead(t, "cancelled")
	pr = r.open(t, "cancelled", "Cancelled", "")
	r.status(t, head, gitea.StatusPending)
	r.schedule(t, pr.Index)
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, MergeWhenChecksSucceed: true}), 409)
	is.Equal(r.cancel(t, "bob", pr.Index), 403)
	is.Equal(r.cancel(t, "alice", pr.Index), 204)
	is.Equal(r.cancel(t, "alice", pr.Index), 404)
	r.status(t, head, gitea.StatusSuccess)
	r.stillUnmerged(t, pr.Index)
	events, _, err := c.ListIssueTimeline("alice", r.name, pr.Index, gitea.ListIssueCommentOptions{})
	is.NoErr(err)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Type)
	}
	is.True(strings.Contains(strings.Join(kinds, ","), "pull_scheduled_merge,pull_cancel_scheduled_merge"))

	// Already successful checks: merged at once (200).
	_, head = r.ahead(t, "green")
	pr = r.open(t, "green", "Green", "")
	r.status(t, head, gitea.StatusSuccess)
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, MergeWhenChecksSucceed: true}), 200)
	is.True(r.pull(t, pr.Index).HasMerged)
}

// TestPullAutoMergeRestart schedules a merge, restarts the server on the
// same data, and reports the success to the new one: it merges.
func TestPullAutoMergeRestart(t *testing.T) {
	is := is.New(t)
	data := t.TempDir()
	srv, c := newMergeServer(t, testserver.WithDataDir(data))
	r := newMergeRepo(t, srv, c, "restart")
	_, head := r.ahead(t, "ci")
	pr := r.open(t, "ci", "Across a restart", "")
	r.status(t, head, gitea.StatusPending)
	r.schedule(t, pr.Index)
	srv.Stop()

	again := testserver.Start(t, testserver.WithDataDir(data))
	r.srv, r.c = again, again.Client(gitea.SetBasicAuth("alice", userPassword))
	r.git(t, "remote", "set-url", "origin", httpGitURL(again, "alice", r.name, "alice", userPassword))
	is.True(!r.pull(t, pr.Index).HasMerged)
	r.status(t, head, gitea.StatusSuccess)
	got := r.waitMerged(t, pr.Index)
	is.Equal(r.git(t, "rev-parse", r.fetchedMain(t)+"^2"), head)
	is.Equal(got.MergedBy.UserName, "alice")
}
