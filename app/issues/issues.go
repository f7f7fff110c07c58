package issues

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// errEditForbidden answers an edit by someone who is neither the poster nor
// a writer of the issue's unit.
var errEditForbidden = errs.Forbidden("user should be the poster of the issue or have write permission")

// maxAssignees bounds the assignees one request may name, so that checking
// each one's permission stays a small, fixed cost.
const maxAssignees = 20

// CreateInput is Gitea's CreateIssueOption.
type CreateInput struct {
	Title, Body, Ref string
	// Assignee is the deprecated single assignee, merged with Assignees.
	Assignee  string
	Assignees []string
	// Milestone is a milestone id of the repository, 0 for none.
	Milestone int64
	Labels    []int64
	Closed    bool
	Deadline  *time.Time
}

// Create opens an issue in a's repository as the caller (the route has
// checked T, NA and RR(issues)). Labels, milestone, assignees and deadline
// need write access to issues and are ignored without it, as Gitea does.
// closed creates it closed. Everything is one transaction with the
// timeline events, the counters and the "opened" event.
func (s *Service) Create(ctx context.Context, a *repos.Access, in CreateInput) (*IssueView, error) {
	title, err := issue.NormaliseTitle(in.Title)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	now := s.clock.Now()
	i := &issue.Issue{RepoID: a.Repo.ID, PosterID: doer, Title: title, Body: in.Body, Ref: in.Ref,
		CreatedAt: now, UpdatedAt: now}
	var assignees []*user.User
	var labelIDs []int64
	if canWrite(a, i) {
		if in.Milestone != 0 {
			if _, err := s.milestoneOf(ctx, a.Repo, in.Milestone); err != nil {
				return nil, err
			}
			i.MilestoneID = in.Milestone
		}
		if assignees, err = s.assignable(ctx, a.Repo, i, issue.AssigneeNames(in.Assignee, in.Assignees)); err != nil {
			return nil, err
		}
		labelIDs = in.Labels
		if in.Deadline != nil && !in.Deadline.IsZero() {
			if err := issue.CheckShownDate("Deadline", *in.Deadline); err != nil {
				return nil, err
			}
			d := *in.Deadline
			i.Deadline = &d
		}
	}
	if in.Closed {
		i.SetState(issue.StateClosed, now)
	}
	var v *IssueView
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		// Someone the repository's owner blocked opens no issue there (Gitea's rule).
		if err := s.users.CheckNotBlocked(ctx, a.Caller.User, a.Repo.Owner.ID); err != nil {
			return err
		}
		labels, err := s.resolveLabels(ctx, tx, a.Repo, labelIDs)
		if err != nil {
			return err
		}
		if err := tx.Issues.Create(ctx, i); err != nil {
			return err
		}
		if len(labels) > 0 {
			if err := s.setIssueLabels(ctx, tx, a, i, labels, doer); err != nil {
				return err
			}
		}
		if i.MilestoneID != 0 {
			if err := timelineEvent(ctx, tx, i, issue.CommentMilestone, doer, now, func(c *issue.Comment) { c.MilestoneID = i.MilestoneID }); err != nil {
				return err
			}
			if err := tx.Milestones.Recount(ctx, []int64{i.MilestoneID}); err != nil {
				return err
			}
		}
		if len(assignees) > 0 {
			ids := userIDs(assignees)
			if err := tx.Issues.SetAssignees(ctx, i.ID, ids); err != nil {
				return err
			}
			for _, id := range ids {
				if err := timelineEvent(ctx, tx, i, issue.CommentAssignees, doer, now, func(c *issue.Comment) { c.AssigneeID = id }); err != nil {
					return err
				}
			}
		}
		if i.IsClosed {
			if err := timelineEvent(ctx, tx, i, issue.CommentClose, doer, now, nil); err != nil {
				return err
			}
		}
		if err := s.recordReferences(ctx, tx, a.Repo, i, 0, i.Body, doer); err != nil {
			return err
		}
		if err := s.emit(ctx, tx, a, i, ports.IssueEventIssues, "opened", nil); err != nil {
			return err
		}
		if i.IsClosed {
			if err := s.emit(ctx, tx, a, i, ports.IssueEventIssues, "closed", nil); err != nil {
				return err
			}
		}
		v, err = s.createdView(ctx, tx, a, i, len(labels) > 0, assignees)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// createdView is the view of an issue just created, from what creating it
// already knows: only its labels (an exclusive label may have displaced
// another) and its milestone (recounted) are read back.
func (s *Service) createdView(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, labelled bool,
	assignees []*user.User) (*IssueView, error) {
	v := &IssueView{Issue: i, Repo: a.Repo, Poster: a.Caller.User, Assignees: assignees}
	if v.Poster == nil {
		v.Poster = Ghost()
	}
	sort.Slice(v.Assignees, func(x, y int) bool { return v.Assignees[x].ID < v.Assignees[y].ID })
	if labelled {
		m, err := tx.Labels.OfIssues(ctx, []int64{i.ID})
		if err != nil {
			return nil, err
		}
		v.Labels = m[i.ID]
	}
	if i.MilestoneID != 0 {
		m, err := tx.Milestones.Get(ctx, a.Repo.ID, i.MilestoneID)
		if err != nil {
			return nil, err
		}
		v.Milestone = m
	}
	return v, nil
}

// Get returns the issue (or pull request) with this index.
func (s *Service) Get(ctx context.Context, a *repos.Access, index int64) (*IssueView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, a.Repo, i)
}

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
func (s *Service) Edit(ctx context.Context, a *repos.Access, index int64, in EditInput) (*IssueView, error) {
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

func (s *Service) planEdit(ctx context.Context, a *repos.Access, i *issue.Issue, in EditInput, rights issue.EditRights) (*editPlan, error) {
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

// applyEdit writes p on cur inside tx.
func (s *Service) applyEdit(ctx context.Context, tx ports.Stores, a *repos.Access, cur *issue.Issue, p *editPlan) error {
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
func (s *Service) editAssignees(ctx context.Context, tx ports.Stores, cur *issue.Issue, p *editPlan, doer int64, now time.Time) (added, removed []int64, err error) {
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
func (s *Service) recountAfterEdit(ctx context.Context, tx ports.Stores, cur *issue.Issue, stateChanged bool, oldMilestone int64, milestoned bool) error {
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
func (s *Service) emitEdit(ctx context.Context, tx ports.Stores, a *repos.Access, cur *issue.Issue, e editEvents) error {
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
func (s *Service) emit(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, kind ports.IssueEventKind,
	action string, edit func(e *ports.IssueEvent)) error {
	e := ports.IssueEvent{Kind: kind, Action: action, Repo: a.Repo, Issue: i, SenderID: a.Caller.UserID()}
	if edit != nil {
		edit(&e)
	}
	return s.events.IssueChanged(ctx, tx, e)
}

// Delete removes an issue with everything hanging on it (the route checked
// RA), recounts its labels and milestone, emits "deleted" and then removes
// its attachment files.
func (s *Service) Delete(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	var files []*issue.Attachment
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		if files, err = s.issueFiles(ctx, tx, cur); err != nil {
			return err
		}
		labels, err := tx.Labels.OfIssues(ctx, []int64{cur.ID})
		if err != nil {
			return err
		}
		// The event goes first: its payload is built from rows the
		// deletion removes.
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventIssues, "deleted", nil); err != nil {
			return err
		}
		if err := tx.Issues.Delete(ctx, cur.ID); err != nil {
			return err
		}
		if ids := issue.LabelIDs(labels[cur.ID]); len(ids) > 0 {
			if err := tx.Labels.Recount(ctx, ids); err != nil {
				return err
			}
		}
		if cur.MilestoneID != 0 {
			return tx.Milestones.Recount(ctx, []int64{cur.MilestoneID})
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.removeFiles(ctx, files)
	return nil
}

// issueFiles lists the attachments of the issue and of its comments.
func (s *Service) issueFiles(ctx context.Context, tx ports.Stores, i *issue.Issue) ([]*issue.Attachment, error) {
	own, err := tx.Attachments.ListByIssue(ctx, i.ID, 0)
	if err != nil {
		return nil, err
	}
	comments, _, err := tx.Comments.List(ctx, ports.CommentQuery{IssueID: i.ID, Types: []issue.CommentType{issue.CommentPlain}})
	if err != nil {
		return nil, err
	}
	if len(comments) == 0 {
		return own, nil
	}
	ids := make([]int64, len(comments))
	for k, c := range comments {
		ids[k] = c.ID
	}
	byComment, err := tx.Attachments.OfComments(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		own = append(own, byComment[id]...)
	}
	return own, nil
}

// milestoneOf finds a milestone of repo: another repository's or an absent
// one is a 422 naming milestone.
func (s *Service) milestoneOf(ctx context.Context, repo *repository.Repository, id int64) (*issue.Milestone, error) {
	m, err := s.stores.Milestones.Get(ctx, repo.ID, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Invalid("milestone does not exist [id: "+strconv.FormatInt(id, 10)+"]", "milestone")
	}
	return m, err
}

// assignable resolves assignee names to accounts that may be assigned
// issues like i in repo: individuals with write access to the issue's
// unit (or to code, as Gitea's CanBeAssigned allows), computed by the
// repository permission core. An unknown name or a user without that
// access is a 422 naming assignee.
func (s *Service) assignable(ctx context.Context, repo *repository.Repository, i *issue.Issue, names []string) ([]*user.User, error) {
	if len(names) > maxAssignees {
		return nil, errs.Invalid("too many assignees", "assignee")
	}
	out := make([]*user.User, 0, len(names))
	for _, n := range names {
		u, err := s.stores.Users.GetByName(ctx, n)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.Invalid("user does not exist [name: "+n+"]", "assignee")
		}
		if err != nil {
			return nil, err
		}
		if u.Kind != user.KindIndividual {
			return nil, errs.Invalid("an organization cannot be assigned [name: "+n+"]", "assignee")
		}
		perm, err := s.repos.PermissionOf(ctx, u, repo)
		if err != nil {
			return nil, err
		}
		if !perm.CanWrite(unitOf(i)) && !perm.CanWrite(permission.UnitCode) && !perm.IsAdmin() {
			return nil, errs.Invalid("user does not have access to the repository [name: "+n+"]", "assignee")
		}
		out = append(out, u)
	}
	return out, nil
}

func userIDs(list []*user.User) []int64 {
	out := make([]int64, len(list))
	for k, u := range list {
		out[k] = u.ID
	}
	return out
}

// ListInput is the query of GET R/issues.
type ListInput struct {
	Filter
	// CreatedBy, AssignedBy and MentionedBy are user names.
	CreatedBy, AssignedBy, MentionedBy string
	ports.ListOptions
}

// List returns one page of the repository's issues and pull requests
// matching in, and the total. Unknown label and milestone names are
// discarded, as Gitea does; an unknown user name matches nothing.
func (s *Service) List(ctx context.Context, a *repos.Access, in ListInput) ([]*IssueView, int64, error) {
	labels, err := filterNames("labels", in.Labels)
	if err != nil {
		return nil, 0, err
	}
	q := ports.IssueQuery{RepoIDs: []int64{a.Repo.ID}, State: stateFilter(in.State), Keyword: in.Keyword,
		LabelNames: labels, Since: in.Since, Before: in.Before, ListOptions: in.ListOptions}
	issues, pulls := canRead(a, &issue.Issue{}), canRead(a, &issue.Issue{IsPull: true})
	switch {
	case in.Type == "issues" || in.Type == "pulls":
		isPull := in.Type == "pulls"
		if !canRead(a, &issue.Issue{IsPull: isPull}) {
			return nil, 0, errs.NotFound("issues or pull requests are disabled or not readable")
		}
		q.IsPull = &isPull
	case issues && !pulls:
		q.IsPull = new(bool)
	case pulls && !issues:
		t := true
		q.IsPull = &t
	}
	ids, err := s.milestoneIDs(ctx, a.Repo, in.Milestones)
	if err != nil {
		return nil, 0, err
	}
	q.MilestoneIDs = ids
	for _, f := range []struct {
		name string
		id   *int64
	}{{in.CreatedBy, &q.PosterID}, {in.AssignedBy, &q.AssigneeID}, {in.MentionedBy, &q.MentionedID}} {
		if f.name == "" {
			continue
		}
		u, err := s.stores.Users.GetByName(ctx, f.name)
		if errors.Is(err, errs.ErrNotFound) {
			return []*IssueView{}, 0, nil
		}
		if err != nil {
			return nil, 0, err
		}
		*f.id = u.ID
	}
	list, total, err := s.stores.Issues.List(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.Views(ctx, s.stores, []*repository.Repository{a.Repo}, list)
	return views, total, err
}

// stateFilter reads Gitea's state parameter: anything but closed and all is open.
func stateFilter(s string) string {
	switch s {
	case "closed", "all":
		return s
	}
	return "open"
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// milestoneIDs resolves milestone titles (or, failing that, ids) of repo,
// discarding the unknown ones as Gitea does.
func (s *Service) milestoneIDs(ctx context.Context, repo *repository.Repository, refs []string) ([]int64, error) {
	refs, err := filterNames("milestones", refs)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, ref := range refs {
		m, err := s.stores.Milestones.GetByTitle(ctx, repo.ID, ref)
		if err == nil {
			out = append(out, m.ID)
			continue
		}
		if !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
		id, perr := strconv.ParseInt(ref, 10, 64)
		if perr != nil {
			continue
		}
		if m, err = s.stores.Milestones.Get(ctx, repo.ID, id); err == nil {
			out = append(out, m.ID)
		} else if !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
	}
	return out, nil
}
