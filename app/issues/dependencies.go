package issues

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Dependencies are the use cases of the dependencies between issues: the
// issues one depends on and the issues it blocks.
type Dependencies struct{ *Service }

// Dependencies returns the dependency use cases.
func (s *Service) Dependencies() Dependencies { return Dependencies{s} }

// IssueRef names an issue by repository and index (Gitea's IssueMeta). An
// empty Owner and Repo mean the repository of the path.
type IssueRef struct {
	Owner, Repo string
	Index       int64
}

var errDependenciesDisabled = errs.NotFound("issue dependencies are disabled")

// openRef finds the issue ref names, as the caller reaches it: 404 when
// the repository or the issue is absent or unreadable.
func (s Dependencies) openRef(ctx context.Context, a *repos.Access, ref IssueRef) (*issue.Issue, *repos.Access, error) {
	ra := a
	if (ref.Owner != "" || ref.Repo != "") && !(ref.Owner == a.Repo.Owner.Name && ref.Repo == a.Repo.Name) {
		other, err := s.repos.Open(ctx, a.Caller, ref.Owner, ref.Repo)
		var moved *repos.RenamedError
		if errors.As(err, &moved) || errors.Is(err, errs.ErrNotFound) {
			return nil, nil, errs.NotFound("repository does not exist [" + ref.Owner + "/" + ref.Repo + "]")
		}
		if err != nil {
			return nil, nil, err
		}
		ra = other
	}
	i, err := s.Open(ctx, ra, ref.Index)
	if err != nil {
		return nil, nil, err
	}
	return i, ra, nil
}

// List lists one page of the issues an issue depends on (404 when
// dependencies are disabled); issues the caller cannot read are left out.
func (s Dependencies) List(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) ([]LinkedIssue, error) {
	if !a.Repo.Tracker.EnableIssueDependencies {
		return nil, errDependenciesDisabled
	}
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	ids, _, err := s.stores.IssueRelations.Dependencies(ctx, i.ID, opts)
	if err != nil {
		return nil, err
	}
	return s.linked(ctx, a, ids)
}

// Blocks lists one page of the issues an issue blocks; issues the caller
// cannot read are left out.
func (s Dependencies) Blocks(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) ([]LinkedIssue, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	ids, _, err := s.stores.IssueRelations.Blocks(ctx, i.ID, opts)
	if err != nil {
		return nil, err
	}
	return s.linked(ctx, a, ids)
}

// linked loads these issues in order with their repositories, keeping the
// ones the caller may read (one permission lookup per repository).
func (s Dependencies) linked(ctx context.Context, a *repos.Access, ids []int64) ([]LinkedIssue, error) {
	return s.readable(ctx, a.Caller, map[int64]*repos.Access{a.Repo.ID: a}, ids)
}

// Change adds (add) or removes a dependency between the issue of
// the path and the one ref names. With blocks false the path's issue
// depends on ref's (R/issues/{index}/dependencies); with blocks true ref's
// depends on the path's (R/issues/{index}/blocks). The depending issue's
// repository must have dependencies on and not be archived (404), the
// caller must write its issues (403); a dependency on itself or one that
// closes a cycle is a 422, a duplicate a 409, removing an absent one a
// 404. Both issues get an add_dependency or remove_dependency event. It
// returns the path's issue.
func (s Dependencies) Change(ctx context.Context, a *repos.Access, index int64, ref IssueRef, blocks, add bool) (*issue.Issue, error) {
	if ref.Index <= 0 {
		return nil, errs.Invalid("must be a positive issue index", "Index")
	}
	here, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	other, oa, err := s.openRef(ctx, a, ref)
	if err != nil {
		return nil, err
	}
	target, dep, ta := here, other, a
	if blocks {
		target, dep, ta = other, here, oa
	}
	if ta.Repo.Archived || !ta.Repo.Tracker.EnableIssueDependencies {
		return nil, errDependenciesDisabled
	}
	if !canWrite(ta, target) {
		return nil, errs.Forbidden("not allowed to change the dependencies of this issue")
	}
	typ := issue.CommentRemoveDependency
	if add {
		typ = issue.CommentAddDependency
	}
	uid, now := a.Caller.UserID(), s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if add {
			exists, err := tx.IssueRelations.HasDependency(ctx, target.ID, dep.ID)
			if err != nil {
				return err
			}
			reverse := false
			if target.ID != dep.ID {
				if reverse, err = tx.IssueRelations.DependsTransitively(ctx, dep.ID, target.ID); err != nil {
					return err
				}
			}
			if err := issue.CheckNewDependency(issue.DependencyFacts{Issue: target, DependsOn: dep, Exists: exists, Reverse: reverse}); err != nil {
				return err
			}
			if err := tx.IssueRelations.AddDependency(ctx, target.ID, dep.ID); err != nil {
				return err
			}
		} else if err := tx.IssueRelations.RemoveDependency(ctx, target.ID, dep.ID); err != nil {
			return err
		}
		if err := timelineEvent(ctx, tx, target, typ, uid, now, func(c *issue.Comment) { c.DependentIssueID = dep.ID }); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, dep, typ, uid, now, func(c *issue.Comment) { c.DependentIssueID = target.ID })
	})
	if err != nil {
		return nil, err
	}
	return s.stores.Issues.GetByID(ctx, here.ID)
}
