package transport

import (
	"context"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// checkBranchProtection refuses a ref update the branch's protection rule
// forbids, with the rule's reason (git shows it in the pusher's remote:
// lines). Unprotected branches cost one cached lookup; Git is asked
// (fast-forward, changed files) only for a protected branch.
func (s *Service) checkBranchProtection(ctx context.Context, r *repository.Repository, u *user.User, in HookInput,
	c repository.RefChange) error {
	if !c.IsBranch() {
		return nil
	}
	bp := s.repos.BranchProtections()
	p, err := bp.Match(ctx, r, c.ShortName())
	if err != nil || p == nil {
		return err
	}
	up := protection.RefUpdate{Delete: c.IsDelete(), Create: c.IsCreate()}
	if !up.Delete && !up.Create {
		insp, err := s.inspect.InspectPush(ctx, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}, in.Quarantine,
			c.OldID, c.NewID, p.HasFilePatterns())
		if err != nil {
			return err
		}
		up.ForcePush, up.ChangedFiles = !insp.FastForward, insp.ChangedFiles
	}
	if !up.Delete && p.RequiresSignedCommits() {
		if up.UnverifiedCommit, err = s.unverifiedCommit(ctx, r, in, c); err != nil {
			return err
		}
	}
	var perm permission.Permission
	deployKey := in.DeployKeyID != 0
	if !deployKey {
		if perm, err = s.pushPermission(ctx, r, u, in.TaskID); err != nil {
			return err
		}
	}
	d, err := bp.Doer(ctx, r, u, perm, deployKey, p)
	if err != nil {
		return err
	}
	if deployKey {
		// The key's write access was checked before (checkPushingKeyOrAccount).
		d.CanWriteCode = true
	}
	return p.CheckPush(d, up)
}

// maxSignedCheck bounds the commits of one ref update whose signatures are
// checked; a push bringing more to a branch requiring signed commits is
// refused at the first one past it.
const maxSignedCheck = 10000

// unverifiedCommit returns the first commit c brings to its branch whose
// signature is not verified, "" when all are.
func (s *Service) unverifiedCommit(ctx context.Context, r *repository.Repository, in HookInput, c repository.RefChange) (string, error) {
	oldID := c.OldID
	if c.IsCreate() {
		oldID = ""
	}
	list, err := s.inspect.PushedCommits(ctx, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}, in.Quarantine,
		oldID, c.NewID, maxSignedCheck+1)
	if err != nil {
		return "", err
	}
	if len(list) > maxSignedCheck {
		return list[maxSignedCheck].ID, nil
	}
	if s.firstUnverified == nil {
		if len(list) > 0 {
			return list[0].ID, nil
		}
		return "", nil
	}
	return s.firstUnverified(ctx, list, s.inspect.SigningKey())
}
