package issues

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Subscriptions are the use cases of users' subscriptions to issues.
type Subscriptions struct{ *Service }

// Subscriptions returns the issue subscription use cases.
func (s *Service) Subscriptions() Subscriptions { return Subscriptions{s} }

// List lists one page of an issue's subscribers: explicit
// watchers and its participants (poster, assignees, commenters) who did
// not opt out.
func (s Subscriptions) List(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, 0, err
	}
	ids, total, err := s.stores.IssueRelations.Subscribers(ctx, i.ID, opts)
	if err != nil || len(ids) == 0 {
		return []*user.User{}, total, err
	}
	found, err := s.stores.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[int64]*user.User, len(found))
	for _, u := range found {
		byID[u.ID] = u
	}
	out := make([]*user.User, 0, len(ids))
	for _, id := range ids {
		if u := byID[id]; u != nil {
			out = append(out, u)
		}
	}
	return out, total, nil
}

// subscribed decides whether the user gets an issue's notifications, as
// Gitea does: an explicit choice wins; else watching the repository or
// taking part in the issue subscribes.
func (s Subscriptions) subscribed(ctx context.Context, i *issue.Issue, userID int64) (bool, error) {
	w, err := s.stores.IssueRelations.Watch(ctx, i.ID, userID)
	if err == nil {
		return w, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return false, err
	}
	rw, err := s.stores.Watches.Get(ctx, userID, i.RepoID)
	switch {
	case err == nil && (rw.Mode == repository.WatchNormal || rw.Mode == repository.WatchAuto):
		return true, nil
	case err != nil && !errors.Is(err, errs.ErrNotFound):
		return false, err
	}
	return s.stores.IssueRelations.IsParticipant(ctx, i.ID, userID)
}

// Check reports whether the caller is subscribed to an
// issue, with the issue.
func (s Subscriptions) Check(ctx context.Context, a *repos.Access, index int64) (bool, *issue.Issue, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return false, nil, err
	}
	on, err := s.subscribed(ctx, i, a.Caller.UserID())
	return on, i, err
}

// Set subscribes (watch) or unsubscribes the named user:
// the user itself or a site admin only. It reports whether the state
// changed (Gitea answers 201, else 200).
func (s Subscriptions) Set(ctx context.Context, a *repos.Access, index int64, name string, watch bool) (bool, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return false, err
	}
	u, err := s.lookupUserByName(ctx, name)
	if err != nil {
		return false, err
	}
	if u.ID != a.Caller.UserID() && !a.Caller.IsAdmin() {
		return false, errs.Forbidden(a.Caller.User.Name + " is not permitted to change subscriptions for " + u.Name)
	}
	changed := false
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		on, err := s.subscribed(ctx, i, u.ID)
		if err != nil || on == watch {
			return err
		}
		changed = true
		return tx.IssueRelations.SetWatch(ctx, i.ID, u.ID, watch)
	})
	return changed, err
}
