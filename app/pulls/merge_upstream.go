package pulls

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// Merge types MergeUpstream answers (Gitea's MergeUpstreamResponse).
const (
	MergeUpstreamUpToDate    = string(syncNothing)
	MergeUpstreamFastForward = string(syncFastForward)
	MergeUpstreamMerge       = string(syncMerge)
)

// mergeUpstreamMessage is the message of the merge commit MergeUpstream
// writes: Gitea's words.
const mergeUpstreamMessage = "merge upstream"

// MergeUpstreamInput is Gitea's MergeUpstreamRequest.
type MergeUpstreamInput struct {
	Branch string
	// FFOnly refuses a merge commit (409) when a fast-forward is not
	// possible.
	FFOnly bool
}

// MergeUpstream brings a branch of a fork up to date with the branch of
// the same name in its parent: a fast-forward when the fork's branch has
// nothing of its own, else a merge commit of the parent's branch into it
// (refused when FFOnly). The branch moves by compare-and-swap and the move
// is recorded as a push by the caller. It answers the merge type:
// "fast-forward", "merge", or "up-to-date" when nothing was missing.
func (s *Service) MergeUpstream(ctx context.Context, a *repos.Access, in MergeUpstreamInput) (string, error) {
	if !a.Repo.IsFork() {
		return "", errs.BadRequest("repo is not a fork")
	}
	if a.Repo.Archived {
		return "", errs.Locked(a.Repo.FullName() + " is archived")
	}
	branch := strings.TrimSpace(in.Branch)
	parent, err := s.repos.OpenByID(ctx, a.Caller, a.Repo.ForkID)
	if errors.Is(err, errs.ErrNotFound) || (err == nil && !parent.Perm.CanRead(permission.UnitCode)) {
		return "", errs.NotFound("the parent repository does not exist")
	}
	if err != nil {
		return "", err
	}
	if branch == "" {
		return "", errs.NotFound("branch does not exist [name: ]")
	}
	if _, err := s.git.Branch(ctx, pathOf(a.Repo), branch); err != nil {
		return "", branchMissing(err, branch)
	}
	if _, err := s.git.Branch(ctx, pathOf(parent.Repo), branch); err != nil {
		return "", branchMissing(err, branch)
	}
	doer, err := s.stores.Users.GetByID(ctx, a.Caller.UserID())
	if err != nil {
		return "", err
	}
	did, err := s.syncBranch(ctx, branchSync{from: parent.Repo, fromBranch: branch, to: a.Repo, toBranch: branch,
		doer: doer, message: mergeUpstreamMessage, fastForward: true, ffOnly: in.FFOnly})
	return string(did), err
}

// branchMissing words an absent branch as Gitea's 404.
func branchMissing(err error, branch string) error {
	if errors.Is(err, errs.ErrNotFound) {
		return errs.NotFound("branch does not exist [name: " + branch + "]")
	}
	return err
}
