package pulls

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
)

// A page of List is built from the database and from the tips of the base
// branches its pull requests name (each shows its base's head commit). A
// cache of pages keeps both stamps with each page: the database's change
// stamp read before the page was listed, and the tips the page shows. The
// page is good while the database stamp is unchanged and every tip is
// where it was (a push moves a branch without a write to the database).

// ChangeStamp returns the database's change stamp; read it before List.
func (s *Service) ChangeStamp(ctx context.Context) (string, error) {
	return s.stamps.Stamp(ctx)
}

// BaseTips returns the base branch tips views show, by branch name ("" for
// a branch that did not exist).
func BaseTips(views []*View) map[string]string {
	tips := make(map[string]string, 1)
	for _, v := range views {
		tips[v.Pull.BaseBranch] = v.BaseCommitID
	}
	return tips
}

// BaseTipsUnchanged reports whether every branch of tips still points
// where tips says in a's repository.
func (s *Service) BaseTipsUnchanged(ctx context.Context, a *repos.Access, tips map[string]string) (bool, error) {
	if len(tips) == 0 {
		return true, nil
	}
	names := make([]string, 0, len(tips))
	for name := range tips {
		names = append(names, name)
	}
	now, err := s.git.BranchTips(ctx, pathOf(a.Repo), names)
	if err != nil && !errors.Is(err, errs.ErrNotFound) {
		return false, err
	}
	for name, sha := range tips {
		if now[name] != sha {
			return false, nil
		}
	}
	return true, nil
}
