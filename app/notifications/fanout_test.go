package notifications

import (
	"slices"
	"testing"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

func TestIssueFanoutEvents(t *testing.T) {
	repo := &repository.Repository{ID: 3}
	iss := &issue.Issue{ID: 7}
	pull := &issue.Issue{ID: 8, IsPull: true}
	for _, c := range []struct {
		name string
		e    ports.IssueEvent
		ok   bool
		want fanoutJob
	}{
		{"opened", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "opened", Repo: repo, Issue: iss, SenderID: 1}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectIssue, IssueID: 7, ActorID: 1, ScanIssue: true}},
		{"pull closed", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "closed", Repo: repo, Issue: pull, SenderID: 1}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectPull, IssueID: 8, ActorID: 1}},
		{"commented", ports.IssueEvent{Kind: ports.IssueEventComment, Action: "created", Repo: repo, Issue: iss, SenderID: 2,
			Comment: &issue.Comment{ID: 11}}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectIssue, IssueID: 7, ActorID: 2, CommentID: 11}},
		{"assigned", ports.IssueEvent{Kind: ports.IssueEventAssign, Action: "assigned", Repo: repo, Issue: iss, SenderID: 1,
			AssigneeID: 5}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectIssue, IssueID: 7, ActorID: 1, Mentioned: []int64{5}}},
		{"review asked", ports.IssueEvent{Kind: ports.IssueEventPullReviewRequest, Action: "review_requested", Repo: repo,
			Issue: pull, SenderID: 1, ReviewerID: 6}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectPull, IssueID: 8, ActorID: 1, Mentioned: []int64{6}}},
		{"edited", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited", Repo: repo, Issue: iss, SenderID: 1}, false, fanoutJob{}},
		{"comment edited", ports.IssueEvent{Kind: ports.IssueEventComment, Action: "edited", Repo: repo, Issue: iss, SenderID: 1,
			Comment: &issue.Comment{ID: 11}}, false, fanoutJob{}},
		{"body edited to mention", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited", Repo: repo,
			Issue: &issue.Issue{ID: 7, Body: "@bob @carol"}, SenderID: 1, FromBody: ptr("@bob")}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectIssue, IssueID: 7, ActorID: 1, NewlyMentioned: []string{"carol"}}},
		{"body edited, no new mention", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited", Repo: repo,
			Issue: &issue.Issue{ID: 7, Body: "@bob again"}, SenderID: 1, FromBody: ptr("@bob")}, false, fanoutJob{}},
		{"comment edited to mention", ports.IssueEvent{Kind: ports.IssueEventComment, Action: "edited", Repo: repo, Issue: iss,
			SenderID: 1, Comment: &issue.Comment{ID: 11, Body: "@dave"}, FromBody: ptr("")}, true,
			fanoutJob{RepoID: 3, Subject: notification.SubjectIssue, IssueID: 7, ActorID: 1, CommentID: 11, NewlyMentioned: []string{"dave"}}},
		{"labelled", ports.IssueEvent{Kind: ports.IssueEventLabel, Action: "label_updated", Repo: repo, Issue: iss}, false, fanoutJob{}},
		{"no issue", ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "opened", Repo: repo}, false, fanoutJob{}},
	} {
		got, ok := issueFanout(c.e)
		if ok != c.ok || got.RepoID != c.want.RepoID || got.Subject != c.want.Subject || got.IssueID != c.want.IssueID ||
			got.ActorID != c.want.ActorID || got.CommentID != c.want.CommentID || got.ScanIssue != c.want.ScanIssue ||
			len(got.Mentioned) != len(c.want.Mentioned) || !slices.Equal(got.NewlyMentioned, c.want.NewlyMentioned) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func ptr(s string) *string { return &s }
