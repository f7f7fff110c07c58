package repos

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Star stars a for its caller; starring twice is a no-op.
func (s *Service) Star(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Stars.Star(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// Unstar removes the caller's star; removing none is a no-op.
func (s *Service) Unstar(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Stars.Unstar(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// IsStarred answers nil when the caller starred a, else a 404.
func (s *Service) IsStarred(ctx context.Context, a *Access) error {
	ok, err := s.stores.Stars.IsStarred(ctx, a.Caller.UserID(), a.Repo.ID)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFound("repository is not starred")
	}
	return nil
}

// Stargazers lists one page of who starred a.
func (s *Service) Stargazers(ctx context.Context, a *Access, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Stars.Stargazers(ctx, a.Repo.ID, opts)
}

// Watch subscribes the caller to a and returns the subscription.
func (s *Service) Watch(ctx context.Context, a *Access) (*ports.Watch, error) {
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Watches.Watch(ctx, a.Caller.UserID(), a.Repo.ID)
	}); err != nil {
		return nil, err
	}
	return s.stores.Watches.Get(ctx, a.Caller.UserID(), a.Repo.ID)
}

// Unwatch ends the caller's subscription; ending none is a no-op.
func (s *Service) Unwatch(ctx context.Context, a *Access) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Watches.Unwatch(ctx, a.Caller.UserID(), a.Repo.ID)
	})
}

// Subscription returns the caller's subscription to a, a 404 when none.
func (s *Service) Subscription(ctx context.Context, a *Access) (*ports.Watch, error) {
	w, err := s.stores.Watches.Get(ctx, a.Caller.UserID(), a.Repo.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound("not watching this repository")
	}
	return w, err
}

// Watchers lists one page of who watches a.
func (s *Service) Watchers(ctx context.Context, a *Access, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Watches.Watchers(ctx, a.Repo.ID, opts)
}
