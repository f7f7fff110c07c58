package hooks

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// IssueChanged queues the deliveries of an issue change, as Gitea's webhook
// notifier does: to the repository's, its owner's (a user's or an
// organisation's) and the system hooks that want the event's fine type
// (issues, issue_assign, …; pull_request, pull_request_assign, … for a pull
// request). It runs in the change's transaction; when no hook wants the
// event it reads nothing more than the hooks, otherwise the few records the
// payload shows, each in one query.
func (d *Dispatcher) IssueChanged(ctx context.Context, tx ports.Stores, e ports.IssueEvent) error {
	if !d.settings.EnableWebhooks || e.Issue == nil {
		return nil
	}
	eventType := issueEventType(e.Kind, e.Action, e.Issue.IsPull)
	if e.Kind == ports.IssueEventPullReview {
		if eventType = reviewEventType(e.Review); eventType == "" {
			return nil
		}
	}
	r := e.Repo
	if r == nil {
		var err error
		if r, err = tx.Repos.GetByID(ctx, e.Issue.RepoID); err != nil {
			return err
		}
	}
	all, err := tx.Hooks.ActiveFor(ctx, r.ID, r.Owner.ID)
	if err != nil || len(all) == 0 {
		return err
	}
	hs := hook.Matching(all, r.ID, r.Owner.ID, eventType, "")
	if len(hs) == 0 {
		return nil
	}
	// The repository as the change left it: its issue counters moved in
	// this transaction.
	if r, err = tx.Repos.GetByID(ctx, r.ID); err != nil {
		return err
	}
	ic, err := d.issueContext(ctx, tx, r, e)
	if err != nil {
		return err
	}
	if e.Issue.IsPull {
		if err := d.loadPull(ctx, tx, ic, eventType); err != nil {
			return err
		}
	}
	return d.enqueueAll(ctx, tx, hs, r.ID, ic.issueEvent(e, eventType))
}

// issueEventType is the hook event an issue change is: its family, or for
// a pull request the pull request family of the same name. An "issues"
// change whose action belongs to a narrower family (assigned, label_updated,
// milestoned, …) is counted in that family, as Gitea's notifier does.
func issueEventType(kind ports.IssueEventKind, action string, isPull bool) string {
	if kind == ports.IssueEventIssues || kind == "" {
		switch action {
		case "assigned", "unassigned":
			kind = ports.IssueEventAssign
		case "label_updated", "label_cleared":
			kind = ports.IssueEventLabel
		case "milestoned", "demilestoned":
			kind = ports.IssueEventMilestone
		default:
			kind = ports.IssueEventIssues
		}
	}
	if !isPull {
		return string(kind)
	}
	switch kind {
	case ports.IssueEventPullSync:
		return hook.EventPullRequestSync
	case ports.IssueEventPullReviewRequest:
		return hook.EventPullRequestReviewRequest
	case ports.IssueEventComment:
		return hook.EventPullRequestComment
	case ports.IssueEventLabel:
		return hook.EventPullRequestLabel
	case ports.IssueEventMilestone:
		return hook.EventPullRequestMilestone
	case ports.IssueEventAssign:
		return hook.EventPullRequestAssign
	}
	return hook.EventPullRequest
}

// reviewEventType is the hook event of a submitted review, by its state
// (Gitea's notifier); "" for a state no hook hears of.
func reviewEventType(r *pull.Review) string {
	if r == nil {
		return ""
	}
	switch r.State {
	case pull.ReviewApproved:
		return hook.EventPullRequestReviewApproved
	case pull.ReviewRequestChanges:
		return hook.EventPullRequestReviewRejected
	case pull.ReviewComment:
		return hook.EventPullRequestReviewComment
	}
	return ""
}

// issueHeaderEvent is the event name a delivery's X-Gitea-Event header
// carries for a fine type (Gitea's HookEventType.Event): the issue families
// are "issues", the pull request families "pull_request", comments on
// either "issue_comment".
func issueHeaderEvent(eventType string) string {
	switch eventType {
	case hook.EventIssueComment, hook.EventPullRequestComment:
		return hook.EventIssueComment
	case hook.EventPullRequest, hook.EventPullRequestAssign, hook.EventPullRequestLabel,
		hook.EventPullRequestMilestone, hook.EventPullRequestSync, hook.EventPullRequestReviewRequest:
		return hook.EventPullRequest
	case hook.EventPullRequestReviewApproved:
		return "pull_request_approved"
	case hook.EventPullRequestReviewRejected:
		return "pull_request_rejected"
	case hook.EventPullRequestReviewComment:
		return "pull_request_comment"
	}
	return hook.EventIssues
}

// issueContext is what an issue event shows: the issue and its records,
// the comment, the repository, its owner and the sender.
type issueContext struct {
	payloadContext
	issue   ports.HookIssue
	comment *ports.HookComment
	// assignee is the account (un)assigned, for the chat formats.
	assignee *user.User
	// reviewer is the account asked to review, or who reviewed.
	reviewer *user.User
	// pull is a pull request's rendering (Gitea's PullRequest), nil for
	// an issue or a pull request whose record is gone (events_pulls.go).
	pull any
	// ownerRepo shows the repository as its owner sees it (Gitea's
	// synchronized payloads).
	ownerRepo bool
}

// issueContext loads, in one query per kind of record, everything the
// event's payload shows.
func (d *Dispatcher) issueContext(ctx context.Context, tx ports.Stores, r *repository.Repository,
	e ports.IssueEvent) (*issueContext, error) {
	i := e.Issue
	senderID := e.SenderID
	if senderID == 0 {
		senderID = i.PosterID
	}
	assigneeIDs, err := tx.Issues.Assignees(ctx, []int64{i.ID})
	if err != nil {
		return nil, err
	}
	parent, err := forkParent(ctx, tx, r)
	if err != nil {
		return nil, err
	}
	ids := []int64{r.Owner.ID, senderID, i.PosterID, e.AssigneeID, e.ReviewerID}
	if parent != nil {
		ids = append(ids, parent.Owner.ID)
	}
	ids = append(ids, assigneeIDs[i.ID]...)
	if e.Comment != nil {
		ids = append(ids, e.Comment.PosterID)
	}
	us, err := tx.Users.GetByIDs(ctx, uniqueIDs(ids))
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*user.User, len(us))
	for _, u := range us {
		byID[u.ID] = u
	}
	ic := &issueContext{payloadContext: payloadContext{payloads: d.payloads, baseURL: d.baseURL, repo: r,
		owner: byID[r.Owner.ID], sender: byID[senderID], parent: parent}, assignee: byID[e.AssigneeID],
		reviewer: byID[e.ReviewerID]}
	if parent != nil {
		ic.parentOwner = byID[parent.Owner.ID]
	}
	if ic.owner == nil || ic.sender == nil {
		return nil, errs.NotFound("the repository's owner or the sender no longer exists")
	}
	if err := ic.loadSenderPermission(ctx, tx); err != nil {
		return nil, err
	}
	ic.issue = ports.HookIssue{Issue: i, Repo: r, Poster: byID[i.PosterID]}
	for _, id := range assigneeIDs[i.ID] {
		if u := byID[id]; u != nil {
			ic.issue.Assignees = append(ic.issue.Assignees, u)
		}
	}
	labels, err := tx.Labels.OfIssues(ctx, []int64{i.ID})
	if err != nil {
		return nil, err
	}
	ic.issue.Labels = labels[i.ID]
	if i.MilestoneID != 0 {
		m, err := tx.Milestones.Get(ctx, r.ID, i.MilestoneID)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
		ic.issue.Milestone = m
	}
	if c := e.Comment; c != nil {
		hc := &ports.HookComment{Comment: c, Issue: i, Repo: r, Poster: byID[c.PosterID]}
		if e.Action != issueCommentDeleted {
			if hc.Attachments, err = tx.Attachments.ListByIssue(ctx, i.ID, c.ID); err != nil {
				return nil, err
			}
		}
		ic.comment = hc
	}
	return ic, nil
}

// uniqueIDs drops zeros and repeats.
func uniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// issueEvent renders the event for the hooks of eventType.
func (c *issueContext) issueEvent(e ports.IssueEvent, eventType string) *eventPayload {
	repo := c.senderRepository()
	if c.ownerRepo {
		repo = c.repository(true)
	}
	sender := c.payloads.User(c.sender)
	rendered := c.payloads.Issue(c.issue)
	var changes *changesPayload
	if e.FromTitle != nil || e.FromBody != nil || e.FromRef != nil {
		changes = &changesPayload{}
		if e.FromRef != nil {
			changes.Ref = &changesFrom{From: *e.FromRef}
		}
		if e.FromTitle != nil {
			changes.Title = &changesFrom{From: *e.FromTitle}
		}
		if e.FromBody != nil {
			changes.Body = &changesFrom{From: *e.FromBody}
		}
	}
	var native any
	switch {
	case c.comment != nil:
		cp := &issueCommentPayload{Action: e.Action, Issue: rendered, Comment: c.payloads.Comment(*c.comment),
			Changes: changes, Repository: repo, Sender: sender, IsPull: e.Issue.IsPull}
		if c.pull != nil {
			cp.PullRequest = c.pull
		}
		native = cp
	case e.Issue.IsPull:
		pr := rendered
		if c.pull != nil {
			pr = c.pull
		}
		pp := &pullRequestPayload{Action: e.Action, Index: e.Issue.Index, Changes: changes,
			PullRequest: pr, Repository: repo, Sender: sender}
		if c.reviewer != nil {
			pp.RequestedReviewer = c.payloads.User(c.reviewer)
		}
		if e.Review != nil {
			pp.Review = &reviewPayload{Type: eventType, Content: e.Review.Body}
		}
		native = pp
	default:
		native = &issuePayload{Action: e.Action, Index: e.Issue.Index, Changes: changes, Issue: rendered,
			Repository: repo, Sender: sender}
	}
	ep := c.base(issueHeaderEvent(eventType), native, "", "")
	ep.eventType = eventType
	ep.issue = &issueFacts{action: e.Action, index: e.Issue.Index, title: e.Issue.Title, isPull: e.Issue.IsPull,
		url: c.issueURL(e.Issue)}
	if c.comment != nil {
		ep.issue.commentURL = ep.issue.url + "#issuecomment-" + strconv.FormatInt(c.comment.Comment.ID, 10)
		ep.issue.comment = c.comment.Comment.Body
	}
	if c.assignee != nil {
		ep.issue.assignee = c.assignee.Name
	}
	if e.Review != nil {
		ep.issue.review = strings.TrimPrefix(eventType, "pull_request_review_")
		ep.issue.reviewBody = e.Review.Body
	}
	if c.issue.Milestone != nil {
		ep.issue.milestone = c.issue.Milestone.Title
	}
	return ep
}

// issueURL is the issue's or pull request's web address.
func (c *issueContext) issueURL(i *issue.Issue) string {
	kind := "/issues/"
	if i.IsPull {
		kind = "/pulls/"
	}
	return c.repoURL() + kind + strconv.FormatInt(i.Index, 10)
}
