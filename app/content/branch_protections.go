package content

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

// Gitea's answer to deleting a protected branch through the API.
const refMsgBranchProtected = "branch protected"

// protectionOf returns the rule protecting branch in a's repository and
// the caller as it judges them, or nil when the branch is not protected.
func (s *Service) protectionOf(ctx context.Context, a *repos.Access, branch string) (*protection.Protection, protection.Doer, error) {
	bp := s.repos.BranchProtections()
	p, err := bp.Match(ctx, a.Repo, branch)
	if err != nil || p == nil {
		return nil, protection.Doer{}, err
	}
	d, err := bp.Doer(ctx, a.Repo, a.Caller.User, a.Perm, false, p)
	return p, d, err
}

// SignsCommits reports whether Depot signs the commits it writes itself
// (a branch requiring signed commits takes only those).
func (s *Service) SignsCommits() bool { return s.signsCommits != nil && s.signsCommits() }

// checkBranchWritable is the BW rule for a write of files to branch
// through the API (Gitea's VerifyBranchProtection): on a protected branch
// the caller must be allowed to push, unless every path is unprotected,
// and no protected file may change. paths nil (a patch) asks for push
// rights alone.
func (s *Service) checkBranchWritable(ctx context.Context, a *repos.Access, branch string, paths []string) error {
	p, d, err := s.protectionOf(ctx, a, branch)
	if err != nil || p == nil {
		return err
	}
	if err := p.CheckSignedWrite(d, s.SignsCommits()); err != nil {
		return err
	}
	if paths == nil {
		return p.CheckPush(d, protection.RefUpdate{})
	}
	return p.CheckFiles(d, paths)
}

// checkBranchRefUpdate refuses creating, moving or deleting a protected
// branch through the API as a push would be refused.
func (s *Service) checkBranchRefUpdate(ctx context.Context, a *repos.Access, branch string, up protection.RefUpdate) error {
	p, d, err := s.protectionOf(ctx, a, branch)
	if err != nil || p == nil {
		return err
	}
	if up.Delete {
		return errs.Forbidden(refMsgBranchProtected)
	}
	return p.CheckPush(d, up)
}
