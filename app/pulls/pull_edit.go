package pulls

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

// EditInput is Gitea's EditPullRequestOption: the issue's fields, the
// labels, the base branch and allow_maintainer_edit.
type EditInput struct {
	issues.EditInput
	// Labels replaces the labels when set (writers only, else ignored).
	Labels *[]int64
	// Base retargets the pull request to another branch of its repository.
	Base                string
	AllowMaintainerEdit *bool
}

// Edit changes a pull request (Gitea's EditPullRequest): its poster and
// the writers of pull requests may; the issue's part goes through the
// issue tracker (with its timeline and webhook events), then the labels,
// the base and allow_maintainer_edit.
func (s *Service) Edit(ctx context.Context, a *repos.Access, index int64, in EditInput) (*View, error) {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	if err := pull.CanEdit(doer, i.PosterID, a.Perm); err != nil {
		return nil, err
	}
	// Gitea refuses any state on a merged pull request, "closed" included
	// (which the issue tracker would take as no change).
	if in.State != nil {
		if err := pull.CanChangeState(p); err != nil {
			return nil, err
		}
	}
	if in.AllowMaintainerEdit != nil {
		h, err := s.headAccess(ctx, a.Caller, a, p)
		if err != nil {
			return nil, err
		}
		if err := pull.CanAllowMaintainerEdit(doer, i.PosterID, permOf(h)); err != nil {
			return nil, err
		}
	}
	retarget := in.Base != "" && in.Base != p.BaseBranch && !p.HasMerged
	if retarget {
		if err := s.checkRetarget(ctx, a, i, p, in.Base); err != nil {
			return nil, err
		}
	}
	if _, err := s.issues.Issues().Edit(ctx, a, index, in.EditInput); err != nil {
		return nil, err
	}
	if in.Labels != nil && pull.CanEditMetadata(a.Perm) {
		if _, err := s.issues.IssueLabels().Replace(ctx, a, index, issues.LabelRefs{IDs: *in.Labels}); err != nil {
			return nil, err
		}
	}
	if retarget || in.AllowMaintainerEdit != nil {
		err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			cur, err := tx.Pulls.GetByID(ctx, p.ID)
			if err != nil {
				return err
			}
			if in.AllowMaintainerEdit != nil {
				cur.AllowMaintainerEdit = *in.AllowMaintainerEdit
			}
			if retarget && !cur.HasMerged {
				old := cur.BaseBranch
				cur.BaseBranch, cur.Status = in.Base, pull.StatusChecking
				if err := issues.RecordEvent(ctx, tx, i, issue.CommentChangeTargetBranch, doer, s.clock.Now(),
					func(c *issue.Comment) { c.OldRef, c.NewRef = old, in.Base }); err != nil {
					return err
				}
				if err := enqueueCheck(ctx, tx, cur.ID); err != nil {
					return err
				}
				if err := tx.Pulls.Update(ctx, cur); err != nil {
					return err
				}
				// Gitea's PullRequestChangeTargetBranch: an edit naming the old base.
				ci, err := tx.Issues.GetByID(ctx, i.ID)
				if err != nil {
					return err
				}
				return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "edited",
					Repo: a.Repo, Issue: ci, SenderID: doer, FromRef: &old})
			}
			return tx.Pulls.Update(ctx, cur)
		})
		if err != nil {
			return nil, err
		}
		s.jobs.Notify()
	}
	return s.Get(ctx, a, index)
}

// checkRetarget refuses a new base that does not exist (404), a closed
// pull request (422) and a pair another open pull request has (409).
func (s *Service) checkRetarget(ctx context.Context, a *repos.Access, i *issue.Issue, p *pull.PullRequest, base string) error {
	if _, err := s.git.Branch(ctx, pathOf(a.Repo), base); errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrInvalid) {
		return errs.NotFound("new base '" + base + "' not exist")
	} else if err != nil {
		return err
	}
	if i.IsClosed {
		return errs.Invalid("the pull request is closed", "base")
	}
	if p.HeadRepoID == a.Repo.ID && p.HeadBranch == base {
		return errs.Invalid(msgNoChanges, "base")
	}
	other, err := s.stores.Pulls.FindUnmerged(ctx, a.Repo.ID, base, p.HeadRepoID, p.HeadBranch)
	if err == nil && other.ID != p.ID {
		return errs.Conflict("pull request already exists for these targets")
	}
	return errs.IgnoreNotFound(err)
}
