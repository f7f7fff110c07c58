package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Collaborators are the use cases of a repository's collaborators: listing, checking, adding and
// removing them, and asking a user's permission.
type Collaborators struct{ *Service }

// Collaborators returns the collaborator use cases.
func (s *Service) Collaborators() Collaborators { return Collaborators{s} }

// List lists one page of a's collaborators.
func (s Collaborators) List(ctx context.Context, a *Access, opts ports.ListOptions) ([]ports.CollaboratorUser, int64, error) {
	return s.stores.Collaborators.List(ctx, a.Repo.ID, opts)
}

// collaboratorUser finds the account named in a collaborator route. As in
// Gitea, an unknown account is a 422, not a 404: the 404 of these routes
// means "not a collaborator" or "no such repository".
func (s Collaborators) collaboratorUser(ctx context.Context, name string) (*user.User, error) {
	u, err := s.stores.Users.GetByName(ctx, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Invalid("user does not exist [name: "+name+"]", "collaborator")
	}
	return u, err
}

// Check answers nil when name collaborates on a, a 404 when not,
// and a 422 when no such account exists.
func (s Collaborators) Check(ctx context.Context, a *Access, name string) error {
	u, err := s.collaboratorUser(ctx, name)
	if err != nil {
		return err
	}
	if _, err := s.stores.Collaborators.Get(ctx, a.Repo.ID, u.ID); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errs.NotFound("user is not a collaborator")
		}
		return err
	}
	return nil
}

// Add adds name to a with mode, or changes its mode.
func (s Collaborators) Add(ctx context.Context, a *Access, name string, mode permission.AccessMode) error {
	u, err := s.collaboratorUser(ctx, name)
	if err != nil {
		return err
	}
	if u.Kind != user.KindIndividual {
		return errs.Invalid("an organization cannot be a collaborator", "collaborator")
	}
	if u.ID == a.Repo.Owner.ID {
		return errs.Invalid("the owner cannot be a collaborator", "collaborator")
	}
	if !u.IsActive || u.ProhibitLogin {
		return errs.Invalid("user is not active", "collaborator")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := s.checkNotBlockedEither(ctx, tx, a.Repo, u); err != nil {
			return err
		}
		return tx.Collaborators.Set(ctx, repository.Collaborator{RepoID: a.Repo.ID, UserID: u.ID, Mode: mode})
	})
}

// checkNotBlockedEither refuses a collaboration between r's owner and u when
// either blocks the other, as Gitea's AddOrUpdateCollaborator (403).
func (s Collaborators) checkNotBlockedEither(ctx context.Context, tx ports.Stores, r *repository.Repository, u *user.User) error {
	if err := s.users.CheckNotBlocked(ctx, u, r.Owner.ID); err != nil {
		return err
	}
	if r.Owner.Kind != user.KindIndividual {
		return nil // an organisation cannot be blocked
	}
	owner, err := tx.Users.GetByID(ctx, r.Owner.ID)
	if err != nil {
		return err
	}
	return s.users.CheckNotBlocked(ctx, owner, u.ID)
}

// Remove drops name from a; dropping a non-collaborator is a
// no-op, as in Gitea. As Gitea's ReconsiderWatches does, a user who may no
// longer read a at all stops watching it, in the same transaction, so that
// the watcher count and list never name someone shut out.
func (s Collaborators) Remove(ctx context.Context, a *Access, name string) error {
	u, err := s.collaboratorUser(ctx, name)
	if err != nil {
		return err
	}
	facts := a.Repo.Facts()
	actor := auth.Caller{User: u}.Actor()
	return errs.IgnoreNotFound(s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Collaborators.Remove(ctx, a.Repo.ID, u.ID); err != nil {
			return err
		}
		rel, err := tx.Repos.Relations(ctx, facts, u.ID)
		if err != nil {
			return err
		}
		if permission.Compute(actor, facts, rel).HasAnyAccess() {
			return nil
		}
		return tx.Watches.Unwatch(ctx, u.ID, a.Repo.ID)
	}))
}

// CollaboratorPermission is a user's permission in a repository.
type CollaboratorPermission struct {
	User *user.User
	Perm permission.Permission
}

// Permission answers GET …/collaborators/{name}/permission: site
// admins and repository admins may ask about anyone, others only about
// themselves (Gitea's rule and message). The rule is checked on the name
// before any lookup, as Gitea does, so that a caller who may not ask learns
// nothing about which accounts exist.
func (s Collaborators) Permission(ctx context.Context, a *Access, name string) (*CollaboratorPermission, error) {
	self := a.Caller.User != nil && strings.EqualFold(a.Caller.User.Name, name)
	if !a.Caller.IsAdmin() && !self && !a.Perm.IsAdmin() {
		return nil, errs.Forbidden("Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
	}
	u, err := s.stores.Users.GetByName(ctx, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound("user does not exist")
	}
	if err != nil {
		return nil, err
	}
	perm, err := s.PermissionOf(ctx, u, a.Repo)
	if err != nil {
		return nil, err
	}
	return &CollaboratorPermission{User: u, Perm: perm}, nil
}
