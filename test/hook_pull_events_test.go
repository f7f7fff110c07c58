package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// hookPullPayload is Gitea's PullRequestPayload (the SDK has no type for
// it), made of the SDK's types.
type hookPullPayload struct {
	Action            string             `json:"action"`
	Index             int64              `json:"number"`
	Changes           *hookChanges       `json:"changes"`
	PullRequest       *gitea.PullRequest `json:"pull_request"`
	RequestedReviewer *gitea.User        `json:"requested_reviewer"`
	Repository        *gitea.Repository  `json:"repository"`
	Sender            *gitea.User        `json:"sender"`
	CommitID          string             `json:"commit_id"`
	Review            *struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	} `json:"review"`
}

// hookPullSame checks that a payload's pull request is the API's record
// of it (GET as alice), but for how accounts show, the timestamps, the
// mergeability and the keys in ignore.
func hookPullSame(t *testing.T, srv *testserver.Server, body []byte, index int64, ignore ...string) {
	t.Helper()
	is := is.NewRelaxed(t)
	got := deliveryDecode[map[string]any](t, body)["pull_request"].(map[string]any)
	r := srv.Do("GET", "/repos/alice/repo/pulls/"+itoaTest(index), nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	var want map[string]any
	r.Decode(t, &want)
	for _, k := range []string{"user", "assignee", "assignees", "merged_by", "created_at", "updated_at",
		"closed_at", "merged_at", "base", "head", "mergeable", "mergeable_state"} {
		ignore = append(ignore, k)
	}
	// The branches as the API shows them, their repositories by name.
	for _, side := range []string{"base", "head"} {
		g, _ := got[side].(map[string]any)
		w, _ := want[side].(map[string]any)
		for _, k := range []string{"label", "ref", "sha", "repo_id"} {
			is.Equal(g[k], w[k])
		}
		is.Equal(g["repo"].(map[string]any)["full_name"], w["repo"].(map[string]any)["full_name"])
	}
	for _, k := range ignore {
		delete(got, k)
		delete(want, k)
	}
	is.Equal(got, want)
}

func TestHookPullEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, w := deliverySetup(t, opts...)
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/push", []string{"push"}) // a hook that wants none of these
		deliveryHook(t, alice, rec.URL+"/pr", []string{"pull_request_only"}, func(o *gitea.CreateHookOption) {
			o.Config["secret"] = "s3cret"
		})
		deliveryHook(t, alice, rec.URL+"/sync", []string{"pull_request_sync"})
		deliveryHook(t, alice, rec.URL+"/meta", []string{"pull_request_assign", "pull_request_label", "pull_request_milestone"})
		deliveryHook(t, alice, rec.URL+"/comments", []string{"pull_request_comment"})
		deliveryHook(t, alice, rec.URL+"/issues", []string{"issues", "issue_comment"})

		httpGitOK(t, w, "checkout", "-q", "-b", "feature")
		first := httpGitCommit(t, w, "feature.txt", "one\n", "feature work")
		httpGitOK(t, w, "push", "-q", "origin", "feature")

		// opened
		created, _, err := alice.CreatePullRequest("alice", "repo", gitea.CreatePullRequestOption{Head: "feature",
			Base: "main", Title: "Add feature", Body: "b1"})
		is.NoErr(err)
		got := rec.wait(t, "/pr", 1)[0]
		hookIssueHeaders(t, got, "pull_request", "pull_request", "s3cret")
		p := deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "opened")
		is.Equal(p.Index, created.Index)
		is.True(p.Changes == nil)
		is.Equal(p.PullRequest.Index, created.Index)
		is.Equal(p.PullRequest.ID, created.ID)
		is.Equal(p.PullRequest.Title, "Add feature")
		is.Equal(p.PullRequest.Head.Ref, "feature")
		is.Equal(p.PullRequest.Head.Sha, first)
		is.Equal(p.PullRequest.Head.Repository.FullName, "alice/repo")
		is.Equal(p.PullRequest.Base.Ref, "main")
		is.Equal(p.PullRequest.Base.Repository.FullName, "alice/repo")
		is.Equal(p.PullRequest.Poster.UserName, "alice")
		is.True(!p.PullRequest.HasMerged)
		is.Equal(p.Repository.FullName, "alice/repo")
		is.Equal(p.Sender.UserName, "alice")
		is.True(p.RequestedReviewer == nil && p.Review == nil)
		is.Equal(p.CommitID, "")
		// The check may have run since: what it computes is left out.
		hookPullSame(t, srv, got.Body, created.Index, "additions", "deletions", "changed_files", "merge_base")

		// edited, with what the title was
		_, _, err = alice.EditPullRequest("alice", "repo", created.Index, gitea.EditPullRequestOption{Title: "Add a feature"})
		is.NoErr(err)
		p = deliveryDecode[hookPullPayload](t, rec.wait(t, "/pr", 2)[1].Body)
		is.Equal(p.Action, "edited")
		is.True(p.Changes != nil && p.Changes.Title != nil)
		is.Equal(p.Changes.Title.From, "Add feature")
		is.Equal(p.PullRequest.Title, "Add a feature")

		// synchronized: a push to the head over HTTP, the hooks running.
		second := httpGitCommit(t, w, "feature.txt", "two\n", "more work")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		got = rec.wait(t, "/sync", 1)[0]
		hookIssueHeaders(t, got, "pull_request", "pull_request_sync", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "synchronized")
		is.Equal(p.Index, created.Index)
		is.Equal(p.PullRequest.Head.Sha, second)
		is.Equal(p.Sender.UserName, "alice")
		is.True(p.Repository.Permissions != nil && p.Repository.Permissions.Admin) // as its owner sees it
		pullChecked(t, srv, created.Index, second)
		// A branch nobody's head is syncs nothing.
		httpGitOK(t, w, "push", "-q", "origin", "feature:other")

		// assigned, label_updated, milestoned
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Assignees: []string{"alice"}})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 1)[0]
		hookIssueHeaders(t, got, "pull_request", "pull_request_assign", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "assigned")
		is.Equal(hookIssueUsers(p.PullRequest.Assignees), []string{"alice"})
		label, _, err := alice.CreateLabel("alice", "repo", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
		is.NoErr(err)
		_, _, err = alice.AddIssueLabels("alice", "repo", created.Index, gitea.IssueLabelsOption{Labels: []int64{label.ID}})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 2)[1]
		hookIssueHeaders(t, got, "pull_request", "pull_request_label", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "label_updated")
		is.Equal(len(p.PullRequest.Labels), 1)
		is.Equal(p.PullRequest.Labels[0].Name, "bug")
		ms, _, err := alice.CreateMilestone("alice", "repo", gitea.CreateMilestoneOption{Title: "v1"})
		is.NoErr(err)
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Milestone: &ms.ID})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 3)[2]
		hookIssueHeaders(t, got, "pull_request", "pull_request_milestone", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "milestoned")
		is.True(p.PullRequest.Milestone != nil)
		is.Equal(p.PullRequest.Milestone.ID, ms.ID)
		hookPullSame(t, srv, got.Body, created.Index)

		// pull_request_comment: an IssueCommentPayload with the pull request.
		c, _, err := alice.CreateIssueComment("alice", "repo", created.Index, gitea.CreateIssueCommentOption{Body: "looks good"})
		is.NoErr(err)
		got = rec.wait(t, "/comments", 1)[0]
		hookIssueHeaders(t, got, "issue_comment", "pull_request_comment", "")
		cp := deliveryDecode[hookCommentPayload](t, got.Body)
		is.Equal(cp.Action, "created")
		is.True(cp.IsPull)
		is.Equal(cp.Comment.ID, c.ID)
		is.Equal(cp.Issue.Index, created.Index)
		is.True(cp.Issue.PullRequest != nil)
		is.True(cp.PullRequest != nil)
		is.Equal(cp.PullRequest.Index, created.Index)
		is.Equal(cp.PullRequest.Head.Sha, second)

		// closed, reopened
		closed, open := gitea.StateClosed, gitea.StateOpen
		_, _, err = alice.EditPullRequest("alice", "repo", created.Index, gitea.EditPullRequestOption{State: &closed,
			Milestone: ms.ID, Labels: []int64{label.ID}})
		is.NoErr(err)
		p = deliveryDecode[hookPullPayload](t, rec.wait(t, "/pr", 3)[2].Body)
		is.Equal(p.Action, "closed")
		is.Equal(p.PullRequest.State, gitea.StateClosed)
		is.True(!p.PullRequest.HasMerged)
		_, _, err = alice.EditPullRequest("alice", "repo", created.Index, gitea.EditPullRequestOption{State: &open,
			Milestone: ms.ID, Labels: []int64{label.ID}})
		is.NoErr(err)
		p = deliveryDecode[hookPullPayload](t, rec.wait(t, "/pr", 4)[3].Body)
		is.Equal(p.Action, "reopened")
		is.Equal(p.PullRequest.State, gitea.StateOpen)

		// closed by the merge, merged
		pullChecked(t, srv, created.Index, second)
		_, _, err = alice.MergePullRequest("alice", "repo", created.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
		is.NoErr(err)
		got = rec.wait(t, "/pr", 5)[4]
		hookIssueHeaders(t, got, "pull_request", "pull_request", "s3cret")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "closed")
		is.True(p.PullRequest.HasMerged)
		is.True(p.PullRequest.Merged != nil)
		is.True(p.PullRequest.MergedBy != nil && p.PullRequest.MergedBy.UserName == "alice")
		is.True(p.PullRequest.MergedCommitID != nil)
		is.Equal(*p.PullRequest.MergedCommitID, strings.TrimSpace(httpGitOK(t, repoDir(srv, "alice", "repo"), "rev-parse", "main")))
		is.Equal(p.PullRequest.State, gitea.StateClosed)
		hookPullSame(t, srv, got.Body, created.Index)

		// Nothing more went out: one sync (the push to "other" moved no
		// head), and the issue hooks heard nothing of the pull request.
		is.Equal(len(rec.wait(t, "/pr", 5)), 5)
		is.Equal(len(rec.requests("/sync")), 1)
		is.Equal(len(rec.requests("/issues")), 0)
	})
}

// TestHookPullEventsFromFork pushes to the head of a pull request from a
// fork: the base repository's hooks hear "synchronized", with the fork as
// the head's repository, and the base's timeline records the push.
func TestHookPullEventsFromFork(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, _ := deliverySetup(t, opts...)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/pr", []string{"pull_request"})
		_, _, err := bob.CreateFork("alice", "repo", gitea.CreateForkOption{})
		is.NoErr(err)
		w := httpGitClone(t, httpGitURL(srv, "bob", "repo", "bob", userPassword))
		httpGitOK(t, w, "checkout", "-q", "-b", "feature")
		first := httpGitCommit(t, w, "fork.txt", "one\n", "from the fork")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		pr, _, err := bob.CreatePullRequest("alice", "repo", gitea.CreatePullRequestOption{Head: "bob:feature", Base: "main",
			Title: "From bob"})
		is.NoErr(err)
		p := deliveryDecode[hookPullPayload](t, rec.wait(t, "/pr", 1)[0].Body)
		is.Equal(p.Action, "opened")
		is.Equal(p.Sender.UserName, "bob")
		is.Equal(p.PullRequest.Head.Sha, first)
		is.Equal(p.PullRequest.Head.Repository.FullName, "bob/repo")
		is.True(p.PullRequest.Head.Repository.Fork)
		is.True(p.PullRequest.Head.Repository.Permissions != nil && p.PullRequest.Head.Repository.Permissions.Admin) // bob's
		is.Equal(p.PullRequest.Base.Repository.FullName, "alice/repo")
		is.True(p.PullRequest.Base.Repository.Permissions != nil && !p.PullRequest.Base.Repository.Permissions.Push)

		second := httpGitCommit(t, w, "fork.txt", "two\n", "more from the fork")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		got := rec.wait(t, "/pr", 2)[1]
		hookIssueHeaders(t, got, "pull_request", "pull_request_sync", "")
		p = deliveryDecode[hookPullPayload](t, got.Body)
		is.Equal(p.Action, "synchronized")
		is.Equal(p.Sender.UserName, "bob")
		is.Equal(p.Repository.FullName, "alice/repo")
		is.Equal(p.PullRequest.Head.Sha, second)
		is.Equal(p.PullRequest.Head.Repository.FullName, "bob/repo")
		entries := pullTimeline(t, srv, pr.Index, "pull_push")
		is.Equal(len(entries), 1)
		is.Equal(entries[0].Body, `{"is_force_push":false,"commit_ids":["`+second+`"]}`)
		is.Equal(entries[0].User.UserName, "bob")
		// The check copies the new head into the base repository.
		pullChecked(t, srv, pr.Index, second)
		is.Equal(httpGitRef(t, srv, "alice", "repo", "refs/pull/1/head"), second)
	})
}
