package repos

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Watches are the use cases of watches (subscriptions): watching a repository and listing who watches what.
type Watches struct{ *Service }

// Watches returns the watch use cases.
func (s *Service) Watches() Watches { return Watches{s} }

// Add subscribes the caller to a and returns the subscription.
func (s Watches) Add(ctx context.Context, a *Access) (*ports.Watch, error) {
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Watches.Watch(ctx, a.Caller.UserID(), a.Repo.ID)
	}); err != nil {
		return nil, err
	}
	return s.stores.Watches.Get(ctx, a.Caller.UserID(), a.Repo.ID)
}

// Remove ends the caller's subscription; ending none is a no-op.
func (s Watches) Remove(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Watches.Unwatch(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// Get returns the caller's subscription to a, a 404 when none.
func (s Watches) Get(ctx context.Context, a *Access) (*ports.Watch, error) {
	w, err := s.stores.Watches.Get(ctx, a.Caller.UserID(), a.Repo.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound("not watching this repository")
	}
	return w, err
}

// List lists one page of who watches a.
func (s Watches) List(ctx context.Context, a *Access, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Watches.Watchers(ctx, a.Repo.ID, opts)
}

// ListByUser lists what u watches, as c may see it.
func (s Watches) ListByUser(ctx context.Context, c auth.Caller, u *user.User, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	return s.stores.Repos.Search(ctx, ports.RepoSearch{WatchedBy: u.ID, Sort: "id", Viewer: viewer(c), ListOptions: opts})
}
