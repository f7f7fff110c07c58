package hook

import (
	"fmt"
	"slices"
)

// Event names a hook can subscribe to, as Gitea names them.
const (
	EventCreate                   = "create"
	EventDelete                   = "delete"
	EventFork                     = "fork"
	EventPush                     = "push"
	EventIssues                   = "issues"
	EventIssueAssign              = "issue_assign"
	EventIssueLabel               = "issue_label"
	EventIssueMilestone           = "issue_milestone"
	EventIssueComment             = "issue_comment"
	EventPullRequest              = "pull_request"
	EventPullRequestAssign        = "pull_request_assign"
	EventPullRequestLabel         = "pull_request_label"
	EventPullRequestMilestone     = "pull_request_milestone"
	EventPullRequestComment       = "pull_request_comment"
	EventPullRequestReview        = "pull_request_review"
	EventPullRequestReviewRequest = "pull_request_review_request"
	EventPullRequestSync          = "pull_request_sync"
	EventWiki                     = "wiki"
	EventRepository               = "repository"
	EventRelease                  = "release"
	EventPackage                  = "package"
	EventStatus                   = "status"
	EventWorkflowRun              = "workflow_run"
	EventWorkflowJob              = "workflow_job"
)

// The review events a delivery names; a hook subscribes to all three with
// pull_request_review.
const (
	EventPullRequestReviewApproved = "pull_request_review_approved"
	EventPullRequestReviewRejected = "pull_request_review_rejected"
	EventPullRequestReviewComment  = "pull_request_review_comment"
)

// EventNames are the events a hook can hold, in the order hooks list them.
var EventNames = []string{
	EventCreate, EventDelete, EventFork, EventPush,
	EventIssues, EventIssueAssign, EventIssueLabel, EventIssueMilestone, EventIssueComment,
	EventPullRequest, EventPullRequestAssign, EventPullRequestLabel, EventPullRequestMilestone,
	EventPullRequestComment, EventPullRequestReview, EventPullRequestReviewRequest, EventPullRequestSync,
	EventWiki, EventRepository, EventRelease, EventPackage, EventStatus, EventWorkflowRun, EventWorkflowJob,
}

// eventGroups are the names a client may give that stand for several events
// (Gitea's API: "issues" is every issue event, "issues_only" the issue
// itself; likewise for pull requests), and the review events, which a hook
// holds as pull_request_review.
var eventGroups = map[string][]string{
	EventIssues:   {EventIssues, EventIssueAssign, EventIssueLabel, EventIssueMilestone, EventIssueComment},
	"issues_only": {EventIssues},
	EventPullRequest: {EventPullRequest, EventPullRequestAssign, EventPullRequestLabel, EventPullRequestMilestone,
		EventPullRequestComment, EventPullRequestReview, EventPullRequestReviewRequest, EventPullRequestSync},
	"pull_request_only":            {EventPullRequest},
	EventPullRequestReviewApproved: {EventPullRequestReview},
	EventPullRequestReviewRejected: {EventPullRequestReview},
	EventPullRequestReviewComment:  {EventPullRequestReview},
}

// NormalizeEvents turns a client's events into the events a hook holds:
// groups expanded, duplicates dropped, in EventNames order. No events means
// the default, push. Names are compared as given (Gitea's are lower case);
// an unknown name is a 422 naming Events.
func NormalizeEvents(in []string) ([]string, error) {
	if len(in) == 0 {
		return []string{EventPush}, nil
	}
	want := map[string]bool{}
	for _, name := range in {
		if members, ok := eventGroups[name]; ok {
			for _, m := range members {
				want[m] = true
			}
			continue
		}
		if !slices.Contains(EventNames, name) {
			return nil, invalid(fmt.Sprintf("unknown event %q", name), "Events")
		}
		want[name] = true
	}
	out := make([]string, 0, len(want))
	for _, name := range EventNames {
		if want[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// subscription is the event a hook holds for a delivered event.
func subscription(event string) string {
	switch event {
	case EventPullRequestReviewApproved, EventPullRequestReviewRejected, EventPullRequestReviewComment:
		return EventPullRequestReview
	}
	return event
}

// branchFiltered reports whether the branch filter applies to the event:
// pushes and the creation or deletion of a branch.
func branchFiltered(event string) bool {
	return event == EventPush || event == EventCreate || event == EventDelete
}

// Wants reports whether hook h is to receive event. branch is the branch the
// event is about, "" when it is about none (a tag, an issue): the branch
// filter only judges push, create and delete events of branches. An inactive
// hook and an admin default hook (a template for new repositories) want
// nothing. Whether the hook's scope covers the event's repository is
// Scope.Covers.
func Wants(h *Hook, event, branch string) bool {
	if !h.Active || (h.Scope.IsAdmin() && !h.Scope.System) {
		return false
	}
	if !slices.Contains(h.Events, subscription(event)) {
		return false
	}
	if branch != "" && branchFiltered(event) {
		return MatchBranch(h.BranchFilter, branch)
	}
	return true
}

// Matching returns the hooks among hooks that hear about event in
// repository repoID (owned by ownerID) on branch, in their order.
func Matching(hooks []*Hook, repoID, ownerID int64, event, branch string) []*Hook {
	var out []*Hook
	for _, h := range hooks {
		if h.Scope.Covers(repoID, ownerID) && Wants(h, event, branch) {
			out = append(out, h)
		}
	}
	return out
}

// MatchBranch reports whether branch passes filter: an empty filter and "*"
// pass everything; a filter that does not compile (never stored: it is
// checked on input) passes nothing.
func MatchBranch(filter, branch string) bool {
	if filter == "" || filter == "*" {
		return true
	}
	g, err := CompileGlob(filter)
	if err != nil {
		return false
	}
	return g.Match(branch)
}
