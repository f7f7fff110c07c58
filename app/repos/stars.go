package repos

import (
	"context"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Stars are the use cases of stars: starring a repository and listing who starred what.
type Stars struct{ *Service }

// Stars returns the star use cases.
func (s *Service) Stars() Stars { return Stars{s} }

// Add stars a for its caller; starring twice is a no-op.
func (s Stars) Add(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Stars.Star(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// Remove removes the caller's star; removing none is a no-op.
func (s Stars) Remove(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Stars.Unstar(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// Check answers nil when the caller starred a, else a 404.
func (s Stars) Check(ctx context.Context, a *Access) error {
	ok, err := s.stores.Stars.IsStarred(ctx, a.Caller.UserID(), a.Repo.ID)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFound("repository is not starred")
	}
	return nil
}

// List lists one page of who starred a.
func (s Stars) List(ctx context.Context, a *Access, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Stars.Stargazers(ctx, a.Repo.ID, opts)
}

// ListByUser lists what u starred, as c may see it.
func (s Stars) ListByUser(ctx context.Context, c auth.Caller, u *user.User, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	return s.stores.Repos.Search(ctx, ports.RepoSearch{StarredBy: u.ID, Sort: "id", Viewer: viewer(c), ListOptions: opts})
}
