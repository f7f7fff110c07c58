package hooks

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

func (fakePayloads) PullRequest(v ports.HookPull) any {
	return map[string]any{"number": v.Issue.Index, "merged": v.Pull.HasMerged}
}

func TestHookPullSyncEventType(t *testing.T) {
	is := is.New(t)
	got := issueEventType(ports.IssueEventPullSync, "synchronized", true)
	is.Equal(got, hook.EventPullRequestSync)
	is.Equal(issueHeaderEvent(got), "pull_request")
}

func TestHookPullPayloadShapes(t *testing.T) {
	is := is.New(t)
	alice := &user.User{ID: 1, Name: "alice"}
	bob := &user.User{ID: 2, Name: "bob"}
	pr := &issue.Issue{ID: 5, RepoID: 7, Index: 6, Title: "pr", IsPull: true}

	// A retarget is an edit whose changes name the old base.
	old := "main"
	ic := hookIssueContext(alice, nil, pr)
	ic.pull = map[string]any{"number": 6, "merged": false}
	e := ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited", Issue: pr, SenderID: 1, FromRef: &old}
	b, err := ic.issueEvent(e, hook.EventPullRequest).render(hook.KindService)
	is.NoErr(err)
	var got map[string]any
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["changes"], map[string]any{"ref": map[string]any{"from": "main"}})
	is.Equal(got["pull_request"], map[string]any{"number": float64(6), "merged": false})
	for _, k := range []string{"requested_reviewer", "review"} {
		v, ok := got[k]
		is.True(ok && v == nil)
	}

	// A synchronized event shows the repository as its owner sees it,
	// whoever pushed.
	ic = hookIssueContext(bob, nil, pr)
	ic.pull, ic.ownerRepo = map[string]any{"number": 6}, true
	e = ports.IssueEvent{Kind: ports.IssueEventPullSync, Action: "synchronized", Issue: pr, SenderID: 2}
	ep := ic.issueEvent(e, hook.EventPullRequestSync)
	is.Equal(ep.event, "pull_request")
	is.Equal(ep.eventType, "pull_request_sync")
	b, err = ep.render(hook.KindService)
	is.NoErr(err)
	got = nil
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["action"], "synchronized")
	is.Equal(got["repository"], map[string]any{"full_name": "alice/repo", "admin": true})

	// A comment on a pull request carries the pull request too.
	c := &issue.Comment{ID: 9, IssueID: 5, Body: "hi"}
	ic = hookIssueContext(bob, c, pr)
	ic.pull = map[string]any{"number": 6}
	e = ports.IssueEvent{Kind: ports.IssueEventComment, Action: "created", Issue: pr, SenderID: 2, Comment: c}
	b, err = ic.issueEvent(e, hook.EventPullRequestComment).render(hook.KindService)
	is.NoErr(err)
	got = nil
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["is_pull"], true)
	is.Equal(got["pull_request"], map[string]any{"number": float64(6)})
	is.Equal(got["issue"], map[string]any{"number": float64(6), "labels": float64(0)})
}

func TestHookPullReviewEventTypes(t *testing.T) {
	is := is.New(t)
	for state, want := range map[pull.ReviewState][2]string{
		pull.ReviewApproved:       {hook.EventPullRequestReviewApproved, "pull_request_approved"},
		pull.ReviewRequestChanges: {hook.EventPullRequestReviewRejected, "pull_request_rejected"},
		pull.ReviewComment:        {hook.EventPullRequestReviewComment, "pull_request_comment"},
		pull.ReviewPending:        {"", ""},
		pull.ReviewRequest:        {"", ""},
	} {
		got := reviewEventType(&pull.Review{State: state})
		is.Equal(got, want[0])
		if got != "" {
			is.Equal(issueHeaderEvent(got), want[1])
		}
	}
	got := issueEventType(ports.IssueEventPullReviewRequest, "review_requested", true)
	is.Equal(got, hook.EventPullRequestReviewRequest)
	is.Equal(issueHeaderEvent(got), "pull_request")
}

func TestHookPullReviewChatSummary(t *testing.T) {
	is := is.New(t)
	f := &issueFacts{action: "reviewed", index: 3, title: "Feature", isPull: true, review: "approved", reviewBody: "ship it"}
	is.Equal(f.summary(), "Pull request review approved: #3 Feature")
	is.Equal(f.body(), "ship it")
	f = &issueFacts{action: "review_requested", index: 3, title: "Feature", isPull: true}
	is.Equal(f.summary(), "Pull request review requested: #3 Feature")
}

func (fakePayloads) Release(v ports.HookRelease) any { return map[string]any{"id": v.Release.ID} }
func (fakePayloads) Package(v ports.HookPackage) any { return map[string]any{"id": v.Version.ID} }
