package issues

import (
	"context"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// EditInput is Gitea's EditIssueOption; nil fields are left alone.
type EditInput struct {
	// Title is left alone when empty, as in Gitea.
	Title    string
	Body     *string
	Ref      *string
	Assignee *string
	// Assignees replaces the assignees when set (an empty list clears them).
	Assignees *[]string
	// Milestone sets the milestone; 0 clears it.
	Milestone *int64
	State     *string
	Deadline  *time.Time
	// RemoveDeadline is unset_due_date.
	RemoveDeadline *bool
}

// Edit changes an issue: its poster and the writers of its unit may change
// the title, body, ref and state; only writers change the deadline,
// assignees and milestone (silently ignored for others, as Gitea does).
// Each change writes its timeline event and its webhook event in the same
// transaction, and the counters of the labels and milestones it touches.
func (s Issues) Edit(ctx context.Context, a *repos.Access, index int64, in EditInput) (*IssueView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	rights := issue.RightsOf(doer != 0 && i.PosterID == doer, canWrite(a, i))
	if !rights.Edit {
		return nil, errEditForbidden
	}
	p, err := s.planEdit(ctx, a, i, in, rights)
	if err != nil {
		return nil, err
	}
	var cur *issue.Issue
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err = tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		return s.applyEdit(ctx, tx, a, cur, p)
	})
	if err != nil {
		return nil, err
	}
	return s.view(ctx, a.Repo, cur)
}

// editPlan is an edit validated against the facts outside the transaction.
type editPlan struct {
	title, body, ref *string
	state            *issue.State
	deadline         **time.Time
	assignees        *[]*user.User
	milestone        *int64
}

func (s Issues) planEdit(ctx context.Context, a *repos.Access, i *issue.Issue, in EditInput, rights issue.EditRights) (*editPlan, error) {
	p := &editPlan{body: in.Body, ref: in.Ref}
	if in.Title != "" {
		t, err := issue.NormaliseTitle(in.Title)
		if err != nil {
			return nil, err
		}
		p.title = &t
	}
	if in.State != nil {
		st, err := issue.ParseState(*in.State)
		if err != nil {
			return nil, err
		}
		if err := s.checkPullState(ctx, i, st); err != nil {
			return nil, err
		}
		p.state = &st
	}
	if !rights.Meta {
		return p, nil
	}
	if in.Deadline != nil || in.RemoveDeadline != nil {
		var d *time.Time
		if in.RemoveDeadline == nil || !*in.RemoveDeadline {
			if in.Deadline == nil {
				return nil, errs.BadRequest("The due_date cannot be empty")
			}
			if !in.Deadline.IsZero() {
				v := issue.DeadlineOf(*in.Deadline)
				if err := issue.CheckShownDate("Deadline", v); err != nil {
					return nil, err
				}
				d = &v
			}
		}
		p.deadline = &d
	}
	if in.Assignees != nil || in.Assignee != nil {
		var one string
		var many []string
		if in.Assignee != nil {
			one = *in.Assignee
		}
		if in.Assignees != nil {
			many = *in.Assignees
		}
		users, err := s.assignable(ctx, a.Repo, i, issue.AssigneeNames(one, many))
		if err != nil {
			return nil, err
		}
		p.assignees = &users
	}
	if in.Milestone != nil && *in.Milestone != i.MilestoneID {
		if *in.Milestone != 0 {
			if _, err := s.milestoneOf(ctx, a.Repo, *in.Milestone); err != nil {
				return nil, err
			}
		}
		p.milestone = in.Milestone
	}
	return p, nil
}

// checkPullState applies the pull request rules to a state change of a
// pull request's issue: a merged one keeps its state, and one is reopened
// only while its head exists and no other open pull request duplicates it.
func (s Issues) checkPullState(ctx context.Context, i *issue.Issue, st issue.State) error {
	if !i.IsPull || s.pullRules == nil || st == i.State() {
		return nil
	}
	if err := s.pullRules.CheckStateChange(ctx, i); err != nil {
		return err
	}
	if st == issue.StateOpen {
		return s.pullRules.CheckReopen(ctx, i)
	}
	return nil
}

// applyEdit writes p on cur inside tx.
func (s Issues) applyEdit(ctx context.Context, tx ports.Stores, a *repos.Access, cur *issue.Issue, p *editPlan) error {
	doer := a.Caller.UserID()
	now := s.clock.Now()
	changed := false
	var fromTitle, fromBody *string
	if p.title != nil && *p.title != cur.Title {
		old := cur.Title
		fromTitle, cur.Title, changed = &old, *p.title, true
		if err := timelineEvent(ctx, tx, cur, issue.CommentChangeTitle, doer, now, func(c *issue.Comment) {
			c.OldTitle, c.NewTitle = old, cur.Title
		}); err != nil {
			return err
		}
	}
	if p.body != nil && *p.body != cur.Body {
		old := cur.Body
		fromBody, cur.Body, changed = &old, *p.body, true
	}
	if p.ref != nil && *p.ref != cur.Ref {
		old := cur.Ref
		cur.Ref, changed = *p.ref, true
		if err := timelineEvent(ctx, tx, cur, issue.CommentChangeIssueRef, doer, now, func(c *issue.Comment) {
			c.OldRef, c.NewRef = issue.FriendlyRef(old), issue.FriendlyRef(cur.Ref)
		}); err != nil {
			return err
		}
	}
	if p.deadline != nil {
		if typ, content, ok := issue.DeadlineEvent(cur.Deadline, *p.deadline); ok {
			cur.Deadline, changed = *p.deadline, true
			if err := timelineEvent(ctx, tx, cur, typ, doer, now, func(c *issue.Comment) { c.Content = content }); err != nil {
				return err
			}
		}
	}
	var oldMilestone int64
	milestoned := false
	if p.milestone != nil && *p.milestone != cur.MilestoneID {
		oldMilestone, cur.MilestoneID, changed, milestoned = cur.MilestoneID, *p.milestone, true, true
		if err := timelineEvent(ctx, tx, cur, issue.CommentMilestone, doer, now, func(c *issue.Comment) {
			c.OldMilestoneID, c.MilestoneID = oldMilestone, cur.MilestoneID
		}); err != nil {
			return err
		}
	}
	stateChanged := p.state != nil && cur.SetState(*p.state, now)
	if stateChanged && cur.IsClosed && a.Repo.Tracker.EnableIssueDependencies {
		// Gitea's rule: an issue closes only once what it depends on is closed.
		open, err := tx.IssueRelations.HasOpenDependencies(ctx, cur.ID)
		if err != nil {
			return err
		}
		if open {
			return errs.PreconditionFailed("cannot close this issue or pull request because it still has open dependencies")
		}
	}
	if stateChanged {
		changed = true
		typ := issue.CommentReopen
		if cur.IsClosed {
			typ = issue.CommentClose
		}
		if err := timelineEvent(ctx, tx, cur, typ, doer, now, nil); err != nil {
			return err
		}
	}
	added, removed, err := s.editAssignees(ctx, tx, cur, p, doer, now)
	if err != nil {
		return err
	}
	changed = changed || len(added) > 0 || len(removed) > 0
	if !changed {
		return nil
	}
	cur.UpdatedAt = now
	if err := tx.Issues.Update(ctx, cur); err != nil {
		return err
	}
	if err := s.recountAfterEdit(ctx, tx, cur, stateChanged, oldMilestone, milestoned); err != nil {
		return err
	}
	if fromBody != nil {
		if err := s.recordReferences(ctx, tx, a.Repo, cur, 0, cur.Body, doer); err != nil {
			return err
		}
	}
	return s.emitEdit(ctx, tx, a, cur, editEvents{fromTitle: fromTitle, fromBody: fromBody, stateChanged: stateChanged,
		milestoned: milestoned, added: added, removed: removed})
}

// editAssignees replaces the assignees when p says so, with one timeline
// event per user added or removed.
func (s Issues) editAssignees(ctx context.Context, tx ports.Stores, cur *issue.Issue, p *editPlan, doer int64, now time.Time) (added, removed []int64, err error) {
	if p.assignees == nil {
		return nil, nil, nil
	}
	prev, err := tx.Issues.Assignees(ctx, []int64{cur.ID})
	if err != nil {
		return nil, nil, err
	}
	next := userIDs(*p.assignees)
	added, removed = issue.DiffIDs(prev[cur.ID], next)
	if len(added) == 0 && len(removed) == 0 {
		return nil, nil, nil
	}
	if err := tx.Issues.SetAssignees(ctx, cur.ID, next); err != nil {
		return nil, nil, err
	}
	for _, id := range removed {
		if err := timelineEvent(ctx, tx, cur, issue.CommentAssignees, doer, now, func(c *issue.Comment) {
			c.AssigneeID, c.RemovedAssignee = id, true
		}); err != nil {
			return nil, nil, err
		}
	}
	for _, id := range added {
		if err := timelineEvent(ctx, tx, cur, issue.CommentAssignees, doer, now, func(c *issue.Comment) { c.AssigneeID = id }); err != nil {
			return nil, nil, err
		}
	}
	return added, removed, nil
}

// recountAfterEdit recounts the milestones an edit moved the issue between
// and, when its state changed, its labels and milestone.
func (s Issues) recountAfterEdit(ctx context.Context, tx ports.Stores, cur *issue.Issue, stateChanged bool, oldMilestone int64, milestoned bool) error {
	var ms []int64
	if milestoned && oldMilestone != 0 {
		ms = append(ms, oldMilestone)
	}
	if (milestoned || stateChanged) && cur.MilestoneID != 0 {
		ms = append(ms, cur.MilestoneID)
	}
	if len(ms) > 0 {
		if err := tx.Milestones.Recount(ctx, ms); err != nil {
			return err
		}
	}
	if !stateChanged {
		return nil
	}
	labels, err := tx.Labels.OfIssues(ctx, []int64{cur.ID})
	if err != nil {
		return err
	}
	if ids := issue.LabelIDs(labels[cur.ID]); len(ids) > 0 {
		return tx.Labels.Recount(ctx, ids)
	}
	return nil
}

// editEvents is what an edit changed, for its webhook events.
type editEvents struct {
	fromTitle, fromBody      *string
	stateChanged, milestoned bool
	added, removed           []int64
}

// emitEdit emits Gitea's events of an edit: edited (with the previous
// title and body), closed or reopened, milestoned or demilestoned, and
// assigned or unassigned per user.
func (s Issues) emitEdit(ctx context.Context, tx ports.Stores, a *repos.Access, cur *issue.Issue, e editEvents) error {
	if e.fromTitle != nil || e.fromBody != nil {
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventIssues, "edited", func(ev *ports.IssueEvent) {
			ev.FromTitle, ev.FromBody = e.fromTitle, e.fromBody
		}); err != nil {
			return err
		}
	}
	if e.stateChanged {
		action := "reopened"
		if cur.IsClosed {
			action = "closed"
		}
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventIssues, action, nil); err != nil {
			return err
		}
	}
	if e.milestoned {
		action := "demilestoned"
		if cur.MilestoneID != 0 {
			action = "milestoned"
		}
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventMilestone, action, nil); err != nil {
			return err
		}
	}
	for _, id := range e.removed {
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventAssign, "unassigned", func(ev *ports.IssueEvent) { ev.AssigneeID = id }); err != nil {
			return err
		}
	}
	for _, id := range e.added {
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventAssign, "assigned", func(ev *ports.IssueEvent) { ev.AssigneeID = id }); err != nil {
			return err
		}
	}
	return nil
}

// emit sends one issue event in tx, as the caller.
func (s Issues) emit(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, kind ports.IssueEventKind,
	action string, edit func(e *ports.IssueEvent)) error {
	e := ports.IssueEvent{Kind: kind, Action: action, Repo: a.Repo, Issue: i, SenderID: a.Caller.UserID()}
	if edit != nil {
		edit(&e)
	}
	return s.events.IssueChanged(ctx, tx, e)
}
