package pulls

import (
	"context"
	"errors"
	"fmt"

	"github.com/depothq/depot/app/mirrors"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Messages of refused updates, Gitea's words where it has them.
const (
	msgUpdateConflict = "merge failed because of conflict"
	msgRebaseConflict = "rebase failed because of conflict"
	msgHeadMoved      = "the head branch moved during the update; try again"
	msgHeadGone       = "the head branch of this pull request does not exist"
	msgBaseGone       = "the base branch of this pull request does not exist"
)

// UpdateStyle is how a head branch is brought up to date with its base.
type UpdateStyle string

// The update styles Gitea has; "" is merge.
const (
	UpdateByMerge  UpdateStyle = "merge"
	UpdateByRebase UpdateStyle = "rebase"
)

// ParseUpdateStyle reads the style query parameter: "", merge or rebase.
func ParseUpdateStyle(s string) (UpdateStyle, error) {
	switch UpdateStyle(s) {
	case "", UpdateByMerge:
		return UpdateByMerge, nil
	case UpdateByRebase:
		return UpdateByRebase, nil
	}
	return "", errs.BadRequest("style must be merge or rebase")
}

// UpdateMergeMessage is Gitea's message of the merge commit that brings a
// head branch up to date with its base.
func UpdateMergeMessage(base, head string) string {
	return fmt.Sprintf("Merge branch '%s' into %s", base, head)
}

// Update brings a pull request's head branch up to date with its base: a
// merge commit of the base into the head, or the head's commits rebased
// onto the base. The head moves by compare-and-swap (409 when it moved
// meanwhile) and the move is recorded as a push by the doer.
func (s *Service) Update(ctx context.Context, a *repos.Access, index int64, style UpdateStyle) error {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	h, err := s.headAccess(ctx, a.Caller, a, p)
	if err != nil {
		return err
	}
	rights, err := pull.CanUpdate(p, i.IsClosed, permOf(h), a.Perm, a.Repo.Merge)
	if err != nil {
		return err
	}
	if err := rights.CheckUpdateStyle(style == UpdateByRebase); err != nil {
		return err
	}
	head, err := s.headRepo(ctx, a.Repo, p)
	if err != nil {
		return err
	}
	if head.Archived {
		return errs.Locked(head.FullName() + " is archived")
	}
	doer, err := s.stores.Users.GetByID(ctx, a.Caller.UserID())
	if err != nil {
		return err
	}
	_, err = s.syncBranch(ctx, branchSync{from: a.Repo, fromBranch: p.BaseBranch, to: head, toBranch: p.HeadBranch,
		doer: doer, rebase: style == UpdateByRebase, message: UpdateMergeMessage(p.BaseBranch, p.HeadBranch)})
	return err
}

// headRepo is a pull request's head repository, whatever the caller may
// see of it; 422 when it is gone.
func (s *Service) headRepo(ctx context.Context, base *repository.Repository, p *pull.PullRequest) (*repository.Repository, error) {
	if p.HeadRepoID == base.ID {
		return base, nil
	}
	if p.HeadRepoID == 0 {
		return nil, errs.Invalid("the head repository of this pull request is gone", "index")
	}
	r, err := s.stores.Repos.GetByID(ctx, p.HeadRepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Invalid("the head repository of this pull request is gone", "index")
	}
	return r, err
}

// branchSync is one branch brought up to date with another, maybe in
// another repository.
type branchSync struct {
	from       *repository.Repository
	fromBranch string
	to         *repository.Repository
	toBranch   string
	doer       *user.User
	// rebase replays to's commits on from instead of merging from into to.
	rebase bool
	// message is the merge commit's message.
	message string
	// ffOnly refuses anything but a fast-forward (409).
	ffOnly bool
	// fastForward moves to onto from when to has nothing of its own.
	fastForward bool
}

// syncResult says what bringUpToDate did.
type syncResult string

const (
	syncNothing     syncResult = "up-to-date"
	syncFastForward syncResult = "fast-forward"
	syncMerge       syncResult = "merge"
	syncRebase      syncResult = "rebase"
)

// syncBranch writes the merge or rebase b asks for in to's repository,
// moves to's branch by compare-and-swap and records the move as a push,
// and says what it did (nothing when to already has from's tip).
func (s *Service) syncBranch(ctx context.Context, b branchSync) (syncResult, error) {
	tp := pathOf(b.to)
	toTip, err := s.git.Branch(ctx, tp, b.toBranch)
	if errors.Is(err, errs.ErrNotFound) {
		return "", errs.Invalid(msgHeadGone, "index")
	}
	if err != nil {
		return "", err
	}
	oldID := toTip.Commit.ID
	var fromID string
	if b.from.ID == b.to.ID {
		tip, err := s.git.Branch(ctx, tp, b.fromBranch)
		if errors.Is(err, errs.ErrNotFound) {
			return "", errs.Invalid(msgBaseGone, "index")
		}
		if err != nil {
			return "", err
		}
		fromID = tip.Commit.ID
	} else {
		// The objects of from's branch must be in to's repository before a
		// commit there refers to them; a staging ref keeps them reachable.
		fromID, err = s.pulls.CopyRef(ctx, pathOf(b.from), "refs/heads/"+b.fromBranch, tp, stagingRef(b.from.ID, b.fromBranch))
		if errors.Is(err, errs.ErrNotFound) {
			return "", errs.Invalid(msgBaseGone, "index")
		}
		if err != nil {
			return "", err
		}
	}
	if has, err := s.pulls.IsAncestor(ctx, tp, fromID, oldID); err != nil || has {
		return syncNothing, err
	}
	newID, did, err := s.writeSync(ctx, tp, b, fromID, oldID)
	if err != nil {
		return "", err
	}
	if err := s.pulls.UpdateRef(ctx, tp, "refs/heads/"+b.toBranch, newID, oldID); err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return "", errs.Conflict(msgHeadMoved)
		}
		return "", err
	}
	change := repository.RefChange{Ref: "refs/heads/" + b.toBranch, OldID: oldID, NewID: newID}
	return did, s.recordBranchMove(ctx, b.to, b.doer, change)
}

// writeSync writes the commits that bring to's tip oldID up to date with
// fromID, both in to's repository, and returns the new tip; no ref moves.
func (s *Service) writeSync(ctx context.Context, tp ports.RepoPath, b branchSync, fromID, oldID string) (string, syncResult, error) {
	if b.fastForward || b.ffOnly {
		ff, err := s.pulls.IsAncestor(ctx, tp, oldID, fromID)
		if err != nil {
			return "", "", err
		}
		if ff {
			return fromID, syncFastForward, nil
		}
		if b.ffOnly {
			return "", "", errs.Conflict("the branch has commits of its own: it cannot be fast-forwarded")
		}
	}
	sig := s.repos.Signature(b.doer)
	if b.rebase {
		id, err := s.pulls.RebaseCommits(ctx, tp, fromID, oldID, sig)
		if errors.Is(err, errs.ErrConflict) {
			return "", "", errs.Conflict(msgRebaseConflict)
		}
		return id, syncRebase, err
	}
	id, err := s.pulls.MergeCommits(ctx, tp, oldID, fromID, ports.GitMergeCommit{Message: b.message, Author: sig, Committer: sig})
	if errors.Is(err, errs.ErrConflict) {
		return "", "", errs.Conflict(msgUpdateConflict)
	}
	return id, syncMerge, err
}

// recordBranchMove records a branch the server moved as a push by doer
// does: the repository's size, the push event (webhooks), the checks of
// the pull requests on that branch and the push mirrors that sync on
// commit, in one transaction; then the workers are woken.
func (s *Service) recordBranchMove(ctx context.Context, r *repository.Repository, doer *user.User, change repository.RefChange) error {
	changes := []repository.RefChange{change}
	size, sizeErr := s.storage.Size(ctx, pathOf(r))
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if sizeErr == nil {
			if err := tx.Repos.SetSize(ctx, r.ID, size); err != nil {
				return err
			}
		}
		if err := s.events.Pushed(ctx, tx, ports.PushEvent{RepoID: r.ID, Owner: r.Owner.Name, Repo: r.Name,
			PusherID: doer.ID, PusherName: doer.Name, Changes: changes, When: s.clock.Now()}); err != nil {
			return err
		}
		if err := s.recordPush(ctx, tx, r, doer.ID, changes); err != nil {
			return err
		}
		return mirrors.EnqueueOnCommit(ctx, tx, r.ID)
	})
	if err != nil {
		return err
	}
	s.jobs.Notify()
	return nil
}
