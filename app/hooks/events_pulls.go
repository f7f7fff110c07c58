package hooks

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// loadPull loads, for an event of a pull request, what Gitea's PullRequest
// JSON shows beyond the issue: the pull request's record, the head
// repository (a fork rendered with the sender's access there, as Gitea's
// ToAPIPullRequest shows it), who merged it and the base branch's tip. A
// few queries and one branch read, whatever the number of hooks. A pull
// request whose record is gone (its issue being deleted) keeps the issue
// shape.
func (d *Dispatcher) loadPull(ctx context.Context, tx ports.Stores, c *issueContext, eventType string) error {
	i := c.issue.Issue
	p, err := tx.Pulls.GetByIssueID(ctx, i.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	// Gitea shows a synchronized event's repository as its owner sees it.
	c.ownerRepo = eventType == hook.EventPullRequestSync
	hp := ports.HookPull{HookIssue: c.issue, Pull: p, BaseRepo: c.senderRepository()}
	var head *repository.Repository
	switch {
	case p.HeadRepoID == c.repo.ID:
		head = c.repo
	case p.HeadRepoID != 0:
		head, err = tx.Repos.GetByID(ctx, p.HeadRepoID)
		if errors.Is(err, errs.ErrNotFound) {
			head, err = nil, nil
		}
		if err != nil {
			return err
		}
	}
	hp.Head = head
	var ids []int64
	if head != nil && head.ID != c.repo.ID {
		ids = append(ids, head.Owner.ID)
	}
	if p.MergedByID != 0 {
		ids = append(ids, p.MergedByID)
	}
	byID := map[int64]*user.User{}
	if ids = uniqueIDs(ids); len(ids) > 0 {
		us, err := tx.Users.GetByIDs(ctx, ids)
		if err != nil {
			return err
		}
		for _, u := range us {
			byID[u.ID] = u
		}
	}
	hp.MergedBy = byID[p.MergedByID]
	if err := loadRequests(ctx, tx, &hp); err != nil {
		return err
	}
	if head != nil && head.ID != c.repo.ID {
		if owner := byID[head.Owner.ID]; owner != nil {
			if hp.HeadRepo, err = d.forkHead(ctx, tx, c, head, owner); err != nil {
				return err
			}
		} else {
			hp.Head = nil
		}
	}
	tip, err := d.git.Branch(ctx, ports.RepoPath{Owner: c.repo.Owner.Name, Name: c.repo.Name}, p.BaseBranch)
	switch {
	case err == nil:
		hp.BaseCommitID = tip.Commit.ID
	case !errors.Is(err, errs.ErrNotFound) && !errors.Is(err, errs.ErrInvalid):
		return err
	}
	c.pull = c.payloads.PullRequest(hp)
	return nil
}

// forkHead renders a pull request's head fork with the sender's access to
// it (one relations query at most), and its parent: the base when it is
// the fork's parent, as it mostly is.
func (d *Dispatcher) forkHead(ctx context.Context, tx ports.Stores, c *issueContext, head *repository.Repository,
	owner *user.User) (any, error) {
	u, facts := c.sender, head.Facts()
	a := permission.Actor{Kind: permission.ActorUser, UserID: u.ID, IsSiteAdmin: u.IsAdmin, IsActive: u.IsActive,
		ProhibitLogin: u.ProhibitLogin, IsRestricted: u.IsRestricted}
	var rel permission.Relations
	if !u.IsAdmin && u.ID != head.Owner.ID {
		var err error
		if rel, err = tx.Repos.Relations(ctx, facts, u.ID); err != nil {
			return nil, err
		}
	}
	perm := permission.Compute(a, facts, rel)
	if head.ForkID == c.repo.ID {
		return c.payloads.RepositoryFor(head, owner, perm, c.repo, c.owner), nil
	}
	parent, err := forkParent(ctx, tx, head)
	if err != nil {
		return nil, err
	}
	if parent == nil {
		return c.payloads.RepositoryFor(head, owner, perm, nil, nil), nil
	}
	parentOwner := owner
	if parent.Owner.ID != owner.ID {
		us, err := tx.Users.GetByIDs(ctx, []int64{parent.Owner.ID})
		if err != nil {
			return nil, err
		}
		if len(us) == 0 {
			return c.payloads.RepositoryFor(head, owner, perm, nil, nil), nil
		}
		parentOwner = us[0]
	}
	return c.payloads.RepositoryFor(head, owner, perm, parent, parentOwner), nil
}

// loadRequests fills the users and teams asked to review the pull request
// (three queries at most).
func loadRequests(ctx context.Context, tx ports.Stores, hp *ports.HookPull) error {
	all, err := tx.PullReviews.All(ctx, []int64{hp.Issue.ID})
	if err != nil {
		return err
	}
	var userIDs, teamIDs []int64
	for _, r := range all[hp.Issue.ID] {
		if r.State != pull.ReviewRequest {
			continue
		}
		if r.ReviewerID != 0 {
			userIDs = append(userIDs, r.ReviewerID)
		}
		if r.ReviewerTeamID != 0 {
			teamIDs = append(teamIDs, r.ReviewerTeamID)
		}
	}
	if len(userIDs) > 0 {
		us, err := tx.Users.GetByIDs(ctx, uniqueIDs(userIDs))
		if err != nil {
			return err
		}
		byID := map[int64]*user.User{}
		for _, u := range us {
			byID[u.ID] = u
		}
		for _, id := range userIDs {
			if u := byID[id]; u != nil {
				hp.RequestedReviewers = append(hp.RequestedReviewers, u)
			}
		}
	}
	if len(teamIDs) > 0 {
		teams, err := tx.PullReviews.Teams(ctx, uniqueIDs(teamIDs))
		if err != nil {
			return err
		}
		for _, id := range teamIDs {
			if t := teams[id]; t != nil {
				hp.RequestedTeams = append(hp.RequestedTeams, t)
			}
		}
	}
	return nil
}
