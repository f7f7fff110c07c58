package test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pullTimelineEntry is the part of Gitea's TimelineComment the pull
// request events fill (the SDK's type lacks old_ref and new_ref).
type pullTimelineEntry struct {
	Type   string      `json:"type"`
	Body   string      `json:"body"`
	OldRef string      `json:"old_ref"`
	NewRef string      `json:"new_ref"`
	User   *gitea.User `json:"user"`
}

// pullTimeline reads alice/repo's timeline of a pull request as alice and
// keeps the entries of the given types, in order.
func pullTimeline(t *testing.T, srv *testserver.Server, index int64, types ...string) []pullTimelineEntry {
	t.Helper()
	r := srv.Do("GET", "/repos/alice/repo/issues/"+itoaTest(index)+"/timeline", nil, basicAs("alice")...)
	if r.Status != http.StatusOK {
		t.Fatalf("timeline: %d", r.Status)
	}
	var all []pullTimelineEntry
	r.Decode(t, &all)
	want := map[string]bool{}
	for _, ty := range types {
		want[ty] = true
	}
	out := []pullTimelineEntry{}
	for _, e := range all {
		if want[e.Type] {
			out = append(out, e)
		}
	}
	return out
}

// pullChecked polls alice/repo's pull request until its background check
// has recorded a result for head sha.
func pullChecked(t *testing.T, srv *testserver.Server, index int64, sha string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var raw struct {
			State string `json:"mergeable_state"`
			Head  struct {
				Sha string `json:"sha"`
			} `json:"head"`
		}
		srv.Do("GET", "/repos/alice/repo/pulls/"+itoaTest(index), nil, basicAs("alice")...).Decode(t, &raw)
		if raw.State != "checking" && raw.State != "" && raw.Head.Sha == sha {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pull request #%d still checking (%q at %s)", index, raw.State, raw.Head.Sha)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pullPushContent is what a pull_push entry's body holds.
type pullPushContent struct {
	IsForcePush bool     `json:"is_force_push"`
	CommitIDs   []string `json:"commit_ids"`
}

func TestPullTimeline(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, w := deliverySetup(t, opts...)
		rec := deliveryNewReceiver(t, nil)
		deliveryHook(t, alice, rec.URL+"/pr", []string{"pull_request_only"})
		httpGitOK(t, w, "push", "-q", "origin", "main:dev")
		httpGitOK(t, w, "checkout", "-q", "-b", "feature")
		first := httpGitCommit(t, w, "feature.txt", "one\n", "feature work")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		pr, _, err := alice.CreatePullRequest("alice", "repo", gitea.CreatePullRequestOption{Head: "feature", Base: "main",
			Title: "Add feature"})
		is.NoErr(err)
		rec.wait(t, "/pr", 1)

		// Retargeted: change_target_branch names both bases, and the
		// pull_request event is an edit whose changes name the old one.
		_, _, err = alice.EditPullRequest("alice", "repo", pr.Index, gitea.EditPullRequestOption{Base: "dev"})
		is.NoErr(err)
		got := pullTimeline(t, srv, pr.Index, "change_target_branch")
		is.Equal(len(got), 1)
		is.Equal(got[0].OldRef, "main")
		is.Equal(got[0].NewRef, "dev")
		is.Equal(got[0].User.UserName, "alice")
		p := deliveryDecode[hookPullPayload](t, rec.wait(t, "/pr", 2)[1].Body)
		is.Equal(p.Action, "edited")
		is.True(p.Changes != nil && p.Changes.Ref != nil)
		is.Equal(p.Changes.Ref.From, "main")
		is.True(p.Changes.Title == nil && p.Changes.Body == nil)
		is.Equal(p.PullRequest.Base.Ref, "dev")

		// Pushed: two commits, named oldest first.
		second := httpGitCommit(t, w, "feature.txt", "two\n", "second")
		third := httpGitCommit(t, w, "feature.txt", "three\n", "third")
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		got = pullTimeline(t, srv, pr.Index, "pull_push")
		is.Equal(len(got), 1)
		var pushed pullPushContent
		is.NoErr(json.Unmarshal([]byte(got[0].Body), &pushed))
		is.Equal(pushed, pullPushContent{CommitIDs: []string{second, third}})
		is.Equal(got[0].User.UserName, "alice")

		// The base merged into the head: only the merge commit is the push's.
		httpGitOK(t, w, "checkout", "-q", "dev")
		onDev := httpGitCommit(t, w, "dev.txt", "dev\n", "on dev")
		httpGitOK(t, w, "push", "-q", "origin", "dev")
		httpGitOK(t, w, "checkout", "-q", "feature")
		httpGitOK(t, w, "merge", "-q", "--no-edit", "dev")
		merge := strings.TrimSpace(httpGitOK(t, w, "rev-parse", "HEAD"))
		httpGitOK(t, w, "push", "-q", "origin", "feature")
		got = pullTimeline(t, srv, pr.Index, "pull_push")
		is.Equal(len(got), 2)
		pushed = pullPushContent{}
		is.NoErr(json.Unmarshal([]byte(got[1].Body), &pushed))
		is.Equal(pushed, pullPushContent{CommitIDs: []string{merge}})
		is.True(onDev != merge)

		// Force-pushed: the old and the new head.
		httpGitOK(t, w, "reset", "-q", "--hard", first)
		forced := httpGitCommit(t, w, "feature.txt", "rewritten\n", "rewritten")
		httpGitOK(t, w, "push", "-q", "-f", "origin", "feature")
		got = pullTimeline(t, srv, pr.Index, "pull_push")
		is.Equal(len(got), 3)
		pushed = pullPushContent{}
		is.NoErr(json.Unmarshal([]byte(got[2].Body), &pushed))
		is.Equal(pushed, pullPushContent{IsForcePush: true, CommitIDs: []string{merge, forced}})

		// Scheduled and cancelled: a pending status holds the merge back.
		pullChecked(t, srv, pr.Index, forced)
		_, _, err = alice.CreateStatus("alice", "repo", forced, gitea.CreateStatusOption{State: gitea.StatusPending, Context: "ci"})
		is.NoErr(err)
		_, _, err = alice.MergePullRequest("alice", "repo", pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge,
			MergeWhenChecksSucceed: true})
		is.NoErr(err)
		_, err = alice.CancelScheduledAutoMerge("alice", "repo", pr.Index)
		is.NoErr(err)
		got = pullTimeline(t, srv, pr.Index, "pull_scheduled_merge", "pull_cancel_scheduled_merge")
		is.Equal(len(got), 2)
		is.Equal(got[0].Type, "pull_scheduled_merge")
		is.Equal(got[1].Type, "pull_cancel_scheduled_merge")

		// Merged: merge_pull, and no close entry besides it.
		_, _, err = alice.MergePullRequest("alice", "repo", pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
		is.NoErr(err)
		got = pullTimeline(t, srv, pr.Index, "merge_pull", "close")
		is.Equal(len(got), 1)
		is.Equal(got[0].Type, "merge_pull")
		is.Equal(got[0].User.UserName, "alice")
		is.Equal(got[0].Body, "")

		// The whole timeline decodes with the SDK, in order.
		all, _, err := alice.ListIssueTimeline("alice", "repo", pr.Index, gitea.ListIssueCommentOptions{})
		is.NoErr(err)
		var types []string
		for _, e := range all {
			switch e.Type {
			case "change_target_branch", "pull_push", "pull_scheduled_merge", "pull_cancel_scheduled_merge", "merge_pull":
				types = append(types, e.Type)
			}
		}
		is.Equal(types, []string{"change_target_branch", "pull_push", "pull_push", "pull_push",
			"pull_scheduled_merge", "pull_cancel_scheduled_merge", "merge_pull"})
	})
}
