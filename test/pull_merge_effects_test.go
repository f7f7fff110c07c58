package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestPullMergeHeadBranch checks the head branch around a merge: gone
// before it refuses the merge, and delete_branch_after_merge deletes it
// unless another open pull request still uses it.
func TestPullMergeHeadBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "heads")

	// Gone before the merge.
	base, _ := r.diverge(t, "gone")
	gone := r.open(t, "gone", "Gone", "")
	ok, _, err := c.DeleteRepoBranch("alice", r.name, "gone")
	is.NoErr(err)
	is.True(ok)
	code := r.merge(t, c, gone.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
	is.True(code == 405 || code == 409)
	is.Equal(r.fetchedMain(t), base)
	is.True(!r.pull(t, gone.Index).HasMerged)

	// Deleted after the merge.
	yes, no := true, false
	r.ahead(t, "short")
	short := r.open(t, "short", "Short", "")
	is.Equal(r.merge(t, c, short.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, DeleteBranchAfterMerge: &yes}), 200)
	is.Equal(r.ref(t, "refs/heads/short"), "")

	// Kept when asked to.
	r.ahead(t, "keep")
	keep := r.open(t, "keep", "Keep", "")
	is.Equal(r.merge(t, c, keep.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, DeleteBranchAfterMerge: &no}), 200)
	is.True(r.ref(t, "refs/heads/keep") != "")

	// Kept while another open pull request uses it (into another base).
	r.branchFromMain(t, "other-base")
	r.push(t, "other-base")
	_, shared := r.ahead(t, "shared")
	first := r.open(t, "shared", "Shared", "")
	second, _, err := c.CreatePullRequest("alice", r.name, gitea.CreatePullRequestOption{Head: "shared", Base: "other-base", Title: "Shared too"})
	is.NoErr(err)
	is.Equal(r.merge(t, c, first.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, DeleteBranchAfterMerge: &yes}), 200)
	is.Equal(r.ref(t, "refs/heads/shared"), shared)
	is.True(!r.pull(t, second.Index).HasMerged)

	// The repository's default deletes it.
	_, _, err = c.EditRepo("alice", r.name, gitea.EditRepoOption{DefaultDeleteBranchAfterMerge: &yes})
	is.NoErr(err)
	r.ahead(t, "dflt")
	dflt := r.open(t, "dflt", "Default", "")
	is.Equal(r.merge(t, c, dflt.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 200)
	is.Equal(r.ref(t, "refs/heads/dflt"), "")
}

// TestPullMergeEffects checks what a merge leaves behind: closed issues
// named by closing keywords, the timeline's merge event, the merged
// answer of GET merge and the pull request found by its merge commit.
func TestPullMergeEffects(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "effects")
	for _, title := range []string{"bug one", "bug two", "bug three"} {
		_, _, err := c.CreateIssue("alice", r.name, gitea.CreateIssueOption{Title: title})
		is.NoErr(err)
	}
	r.branchFromMain(t, "fix")
	r.commit(t, "", "fix.txt", "fix\n", "fix the second bug\n\ncloses #2")
	r.push(t, "fix")
	pr := r.open(t, "fix", "Fix bugs", "Fixes #1")
	is.Equal(pr.Index, int64(4))

	merged, resp, err := c.IsPullRequestMerged("alice", r.name, pr.Index)
	is.NoErr(err)
	is.True(!merged)
	is.Equal(resp.StatusCode, 404)

	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 200)
	tip := r.fetchedMain(t)

	merged, resp, err = c.IsPullRequestMerged("alice", r.name, pr.Index)
	is.NoErr(err)
	is.True(merged)
	is.Equal(resp.StatusCode, 204)

	for index, want := range map[int64]gitea.StateType{1: gitea.StateClosed, 2: gitea.StateClosed, 3: gitea.StateOpen} {
		i, _, err := c.GetIssue("alice", r.name, index)
		is.NoErr(err)
		is.Equal(i.State, want)
	}

	events, _, err := c.ListIssueTimeline("alice", r.name, pr.Index, gitea.ListIssueCommentOptions{})
	is.NoErr(err)
	found := false
	for _, e := range events {
		if e.Type == "merge_pull" {
			found = true
			is.Equal(e.Poster.UserName, "alice")
		}
	}
	is.True(found)

	var byCommit struct {
		Number int64 `json:"number"`
	}
	res := srv.Do("GET", "/repos/alice/"+r.name+"/commits/"+tip+"/pull", nil)
	is.Equal(res.Status, 200)
	res.Decode(t, &byCommit)
	is.Equal(byCommit.Number, pr.Index)
}

// TestPullMergeReopeningKeywords merges a pull request whose body and
// commits name issues after Gitea's closing and reopening keywords: each
// issue ends as the last keyword naming it says (the body first, then the
// commits oldest first), and one already in that state is left alone.
func TestPullMergeReopeningKeywords(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "reopening")
	closed := gitea.StateClosed
	for n, title := range []string{"open, closed by a commit", "closed, reopened by the body", "closed, reopened by a commit",
		"open, closed by the body then reopened by a commit", "closed, not named"} {
		i, _, err := c.CreateIssue("alice", r.name, gitea.CreateIssueOption{Title: title})
		is.NoErr(err)
		if n == 1 || n == 2 || n == 4 {
			_, _, err = c.EditIssue("alice", r.name, i.Index, gitea.EditIssueOption{State: &closed})
			is.NoErr(err)
		}
	}
	r.branchFromMain(t, "work")
	r.commit(t, "", "a.txt", "a\n", "first\n\ncloses #1")
	r.commit(t, "", "b.txt", "b\n", "second\n\nReopened: #3, and reopens #4")
	r.push(t, "work")
	pr := r.open(t, "work", "Work", "Reopens #2, fixes #4")
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 200)

	for index, want := range map[int64]gitea.StateType{1: gitea.StateClosed, 2: gitea.StateOpen, 3: gitea.StateOpen,
		4: gitea.StateOpen, 5: gitea.StateClosed} {
		i, _, err := c.GetIssue("alice", r.name, index)
		is.NoErr(err)
		is.Equal(i.State, want)
	}
	events, _, err := c.ListIssueTimeline("alice", r.name, 2, gitea.ListIssueCommentOptions{})
	is.NoErr(err)
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
	}
	is.Equal(types, []string{"close", "pull_ref", "reopen"}) // named by the body, then reopened by the merger
	events, _, err = c.ListIssueTimeline("alice", r.name, 4, gitea.ListIssueCommentOptions{})
	is.NoErr(err)
	for _, e := range events {
		is.True(e.Type != "close" && e.Type != "reopen") // asked to close and then to reopen: never touched
	}
}

// TestPullMergeFromFork merges pull requests from bob's fork as alice: the
// merge names the fork, a squash is bob's with alice as committer, and
// alice, who cannot write the fork, leaves its branch alone.
func TestPullMergeFromFork(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "app")
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, _, err := bob.CreateFork("alice", r.name, gitea.CreateForkOption{})
	is.NoErr(err)
	r.git(t, "remote", "add", "fork", httpGitURL(srv, "bob", r.name, "bob", userPassword))
	for _, branch := range []string{"one", "two"} {
		r.branchFromMain(t, branch)
		r.commit(t, "Bob <bob@example.com>", branch+".txt", branch+"\n", "bob's "+branch)
		r.git(t, "push", "-q", "fork", branch)
	}
	open := func(branch, title string) *gitea.PullRequest {
		pr, _, err := bob.CreatePullRequest("alice", r.name, gitea.CreatePullRequestOption{Head: "bob:" + branch, Base: "main", Title: title})
		is.NoErr(err)
		return waitPullChecked(t, srv, c, "alice", r.name, pr.Index)
	}
	yes := true

	one := open("one", "From the fork")
	is.True(one.Mergeable)
	is.Equal(r.merge(t, c, one.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, DeleteBranchAfterMerge: &yes}), 200)
	tip := r.fetchedMain(t)
	is.Equal(r.git(t, "log", "-1", "--format=%s|%ae", tip), "Merge pull request 'From the fork' (#1) from bob/app:one into main|alice@example.com")
	is.True(httpGitRef(t, srv, "bob", r.name, "refs/heads/one") != "")

	two := open("two", "Squash the fork")
	is.Equal(r.merge(t, c, two.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleSquash}), 200)
	tip = r.fetchedMain(t)
	is.Equal(r.git(t, "log", "-1", "--format=%B", tip), "Squash the fork (#2)")
	is.Equal(r.git(t, "log", "-1", "--format=%an|%ae|%ce", tip), "bob|bob@example.com|alice@example.com")
	is.Equal(r.git(t, "rev-list", "--parents", "-n1", tip+"~0"), tip+" "+r.git(t, "rev-parse", tip+"^"))
	r.git(t, "cat-file", "-e", tip+":two.txt")
}
