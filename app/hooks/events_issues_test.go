package hooks

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

func TestHookIssueEventTypes(t *testing.T) {
	cases := []struct {
		kind          ports.IssueEventKind
		action        string
		pull          bool
		want, headerW string
	}{
		{ports.IssueEventIssues, "opened", false, "issues", "issues"},
		{ports.IssueEventIssues, "assigned", false, "issue_assign", "issues"},
		{ports.IssueEventAssign, "unassigned", false, "issue_assign", "issues"},
		{ports.IssueEventIssues, "label_cleared", false, "issue_label", "issues"},
		{ports.IssueEventLabel, "label_updated", false, "issue_label", "issues"},
		{ports.IssueEventMilestone, "milestoned", false, "issue_milestone", "issues"},
		{ports.IssueEventIssues, "demilestoned", false, "issue_milestone", "issues"},
		{ports.IssueEventComment, "created", false, "issue_comment", "issue_comment"},
		{ports.IssueEventIssues, "closed", true, "pull_request", "pull_request"},
		{ports.IssueEventAssign, "assigned", true, "pull_request_assign", "pull_request"},
		{ports.IssueEventLabel, "label_updated", true, "pull_request_label", "pull_request"},
		{ports.IssueEventMilestone, "milestoned", true, "pull_request_milestone", "pull_request"},
		{ports.IssueEventComment, "edited", true, "pull_request_comment", "issue_comment"},
	}
	for _, c := range cases {
		t.Run(string(c.kind)+"/"+c.action, func(t *testing.T) {
			is := is.New(t)
			got := issueEventType(c.kind, c.action, c.pull)
			is.Equal(got, c.want)
			is.Equal(issueHeaderEvent(got), c.headerW)
		})
	}
}

// fakePayloads renders records as small maps, enough to see where each went.
type fakePayloads struct{}

func (fakePayloads) Repository(r *repository.Repository, _ *user.User, ownerAccess bool) any {
	return map[string]any{"full_name": r.FullName(), "admin": ownerAccess}
}
func (f fakePayloads) RepositoryWithParent(r *repository.Repository, o *user.User, ownerAccess bool,
	_ *repository.Repository, _ *user.User) any {
	return f.Repository(r, o, ownerAccess)
}
func (fakePayloads) RepositoryFor(r *repository.Repository, _ *user.User, perm permission.Permission,
	_ *repository.Repository, _ *user.User) any {
	return map[string]any{"full_name": r.FullName(), "admin": perm.IsAdmin()}
}
func (fakePayloads) User(u *user.User) any { return map[string]any{"login": u.Name} }
func (fakePayloads) Issue(v ports.HookIssue) any {
	return map[string]any{"number": v.Issue.Index, "labels": len(v.Labels)}
}
func (fakePayloads) Comment(c ports.HookComment) any { return map[string]any{"id": c.Comment.ID} }

func hookIssueContext(sender *user.User, comment *issue.Comment, i *issue.Issue) *issueContext {
	owner := &user.User{ID: 1, Name: "alice"}
	r := &repository.Repository{ID: 7, Name: "repo", Owner: repository.Owner{ID: 1, Name: "alice"}}
	ic := &issueContext{payloadContext: payloadContext{payloads: fakePayloads{}, baseURL: "http://h", repo: r,
		owner: owner, sender: sender}, issue: ports.HookIssue{Issue: i, Repo: r}}
	if comment != nil {
		ic.comment = &ports.HookComment{Comment: comment, Issue: i, Repo: r}
	}
	if sender.ID == owner.ID {
		ic.senderPerm = permission.Permission{Mode: permission.ModeOwner}
	}
	return ic
}

func TestHookIssuePayloadShapes(t *testing.T) {
	is := is.New(t)
	bob := &user.User{ID: 2, Name: "bob"}
	i := &issue.Issue{ID: 3, RepoID: 7, Index: 4, Title: "new", IsPull: false}
	from := "old"
	e := ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited", Issue: i, SenderID: 2, FromTitle: &from}
	ep := hookIssueContext(bob, nil, i).issueEvent(e, hook.EventIssues)
	is.Equal(ep.event, "issues")
	is.Equal(ep.eventType, "issues")
	b, err := ep.render(hook.KindService)
	is.NoErr(err)
	var got map[string]any
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["action"], "edited")
	is.Equal(got["number"], float64(4))
	is.Equal(got["changes"], map[string]any{"title": map[string]any{"from": "old"}})
	is.Equal(got["issue"], map[string]any{"number": float64(4), "labels": float64(0)})
	is.Equal(got["repository"], map[string]any{"full_name": "alice/repo", "admin": false}) // bob is no owner
	is.Equal(got["sender"], map[string]any{"login": "bob"})
	is.Equal(got["commit_id"], "")

	// A comment event carries the comment and no changes unless edited.
	c := &issue.Comment{ID: 9, IssueID: 3, Body: "hi"}
	alice := &user.User{ID: 1, Name: "alice"}
	e = ports.IssueEvent{Kind: ports.IssueEventComment, Action: "created", Issue: i, SenderID: 1, Comment: c}
	ep = hookIssueContext(alice, c, i).issueEvent(e, hook.EventIssueComment)
	is.Equal(ep.event, "issue_comment")
	b, err = ep.render(hook.KindService)
	is.NoErr(err)
	got = nil
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["action"], "created")
	is.Equal(got["comment"], map[string]any{"id": float64(9)})
	is.Equal(got["is_pull"], false)
	_, hasChanges := got["changes"]
	is.True(!hasChanges)
	_, hasPull := got["pull_request"]
	is.True(!hasPull)
	is.Equal(got["repository"], map[string]any{"full_name": "alice/repo", "admin": true}) // as its owner sees it

	// The chat kinds get one line naming the issue and the comment below.
	b, err = ep.render(hook.KindSlack)
	is.NoErr(err)
	var slack slackPayload
	is.NoErr(json.Unmarshal(b, &slack))
	is.Equal(slack.Text, "[<http://h/alice/repo|alice/repo>] <http://h/alice/repo/issues/4#issuecomment-9|New comment on issue #4 new> by alice")
	is.Equal(slack.Attachments[0].Text, "hi")

	// A pull request's change is a PullRequestPayload.
	pr := &issue.Issue{ID: 5, RepoID: 7, Index: 6, Title: "pr", IsPull: true}
	e = ports.IssueEvent{Kind: ports.IssueEventAssign, Action: "assigned", Issue: pr, SenderID: 1}
	ep = hookIssueContext(alice, nil, pr).issueEvent(e, hook.EventPullRequestAssign)
	is.Equal(ep.event, "pull_request")
	is.Equal(ep.eventType, "pull_request_assign")
	b, err = ep.render(hook.KindService)
	is.NoErr(err)
	got = nil
	is.NoErr(json.Unmarshal(b, &got))
	is.Equal(got["pull_request"], map[string]any{"number": float64(6), "labels": float64(0)})
	is.Equal(got["number"], float64(6))
	b, err = ep.render(hook.KindDiscord)
	is.NoErr(err)
	var discord discordPayload
	is.NoErr(json.Unmarshal(b, &discord))
	is.Equal(discord.Embeds[0].Title, "[alice/repo] Pull request assigned: #6 pr")
}
