package issues

import (
	"context"
	"errors"
	"sort"
	"strconv"
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

// Issues are the use cases of the issues (and pull requests as issues)
// themselves: create, get, edit, delete, list and search.
type Issues struct{ *Service }

// Issues returns the use cases of the issues themselves.
func (s *Service) Issues() Issues { return Issues{s} }

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
	// IsPull makes the issue a pull request's; WithIssue then writes the
	// pull request in the same transaction, right after the issue row.
	IsPull    bool
	WithIssue func(ctx context.Context, tx ports.Stores, i *issue.Issue) error
}

// Create opens an issue in a's repository as the caller (the route has
// checked T, NA and RR(issues)). Labels, milestone, assignees and deadline
// need write access to issues and are ignored without it, as Gitea does.
// closed creates it closed. Everything is one transaction with the
// timeline events, the counters and the "opened" event.
func (s Issues) Create(ctx context.Context, a *repos.Access, in CreateInput) (*IssueView, error) {
	title, err := issue.NormaliseTitle(in.Title)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	now := s.clock.Now()
	i := &issue.Issue{RepoID: a.Repo.ID, PosterID: doer, Title: title, Body: in.Body, Ref: in.Ref,
		IsPull: in.IsPull, CreatedAt: now, UpdatedAt: now}
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
		labels, err := s.resolveLabels(ctx, tx, a.Repo, labelIDs)
		if err != nil {
			return err
		}
		if err := tx.Issues.Create(ctx, i); err != nil {
			return err
		}
		if in.WithIssue != nil {
			if err := in.WithIssue(ctx, tx, i); err != nil {
				return err
			}
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
func (s Issues) createdView(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, labelled bool,
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
func (s Issues) Get(ctx context.Context, a *repos.Access, index int64) (*IssueView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, a.Repo, i)
}

// milestoneOf finds a milestone of repo: another repository's or an absent
// one is a 422 naming milestone.
func (s Issues) milestoneOf(ctx context.Context, repo *repository.Repository, id int64) (*issue.Milestone, error) {
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
func (s Issues) assignable(ctx context.Context, repo *repository.Repository, i *issue.Issue, names []string) ([]*user.User, error) {
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
