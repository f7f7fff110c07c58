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

// Transfers are the use cases of repository transfers: offering a repository to another owner, and the
// recipient's answer.
type Transfers struct{ *Service }

// Transfers returns the transfer use cases.
func (s *Service) Transfers() Transfers { return Transfers{s} }

// TransferResult says whether a transfer happened or waits for the recipient.
type TransferResult struct {
	Repo    *repository.Repository
	Pending bool
}

// Start offers a to newOwner, or moves it at once when the caller may put
// repositories there (itself, as a site admin, or an organisation it owns
// or may create repositories in, as Gitea's StartRepositoryTransfer): Gitea
// answers 202 for a done transfer and 201 for a pending one.
func (s Transfers) Start(ctx context.Context, a *Access, newOwner string) (*TransferResult, error) {
	if newOwner == "" {
		return nil, errs.Invalid("Required", "NewOwner")
	}
	to, err := s.users.View(ctx, a.Caller, newOwner)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound("The new owner does not exist or cannot be found")
	}
	if err != nil {
		return nil, err
	}
	// One offer at a time, as Gitea refuses to start a transfer (even a
	// direct one) while another waits for its recipient.
	if pending, err := s.Pending(ctx, a.Repo); err != nil {
		return nil, err
	} else if pending != nil {
		return nil, errs.Conflict("repository is already being transferred [uname: " + a.Repo.Owner.Name + ", name: " + a.Repo.Name + "]")
	}
	if to.ID == a.Repo.Owner.ID {
		return nil, errs.Invalid("the new owner is the current owner", "NewOwner")
	}
	if _, err := s.stores.Repos.GetByName(ctx, to.ID, a.Repo.Name); err == nil {
		return nil, errs.Invalid("repository already exists [uname: "+to.Name+", name: "+a.Repo.Name+"]", "NewOwner")
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	if s.administers(a.Caller, to) {
		return s.moveNow(ctx, a, to)
	}
	// Gitea's 403: one may not offer a repository to an account that blocks one.
	if err := s.users.CheckNotBlocked(ctx, a.Caller.User, to.ID); err != nil {
		return nil, err
	}
	if direct, err := s.createsIn(ctx, a.Caller, to); err != nil {
		return nil, err
	} else if direct {
		return s.moveNow(ctx, a, to)
	}
	if to.Kind == user.KindOrganization {
		return nil, errs.Forbidden("Must be an organization owner")
	}
	if err := s.stores.Transfers.Create(ctx, &repository.Transfer{
		RepoID: a.Repo.ID, DoerID: a.Caller.UserID(), RecipientID: to.ID, Created: s.clock.Now(),
	}); err != nil {
		return nil, err
	}
	return &TransferResult{Repo: a.Repo, Pending: true}, nil
}

// moveNow transfers a to at once.
func (s Transfers) moveNow(ctx context.Context, a *Access, to *user.User) (*TransferResult, error) {
	r, err := s.move(ctx, a.Repo, to, a.Caller.UserID())
	if err != nil {
		return nil, err
	}
	return &TransferResult{Repo: r}, nil
}

// createsIn reports whether u is an organisation c owns or may create
// repositories in, where a transfer by c happens at once.
func (s Transfers) createsIn(ctx context.Context, c auth.Caller, u *user.User) (bool, error) {
	if u.Kind != user.KindOrganization || !c.Signed() {
		return false, nil
	}
	m, err := s.stores.Orgs.Membership(ctx, u.ID, c.UserID())
	if err != nil {
		return false, err
	}
	return m.IsOwner || m.CanCreateRepo, nil
}

// administers reports whether c may put repositories into u's account.
func (s Transfers) administers(c auth.Caller, u *user.User) bool {
	return c.IsAdmin() || c.UserID() == u.ID
}

// Pending returns r's pending transfer, nil when none.
func (s Transfers) Pending(ctx context.Context, r *repository.Repository) (*repository.Transfer, error) {
	if r.PendingTransferTo == 0 {
		return nil, nil // reads fill PendingTransferTo, so no query is needed
	}
	t, err := s.stores.Transfers.Get(ctx, r.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	return t, err
}

// recipientTransfer is a's pending transfer when the caller may answer it.
func (s Transfers) recipientTransfer(ctx context.Context, a *Access) (*repository.Transfer, *user.User, error) {
	t, err := s.stores.Transfers.Get(ctx, a.Repo.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errs.NotFound("no pending transfer")
	}
	if err != nil {
		return nil, nil, err
	}
	to, err := s.stores.Users.GetByID(ctx, t.RecipientID)
	if err != nil {
		return nil, nil, err
	}
	if !s.administers(a.Caller, to) {
		return nil, nil, errs.Forbidden("user does not have enough permission to accept or reject the transfer")
	}
	return t, to, nil
}

// Accept completes a's pending transfer for its recipient.
func (s Transfers) Accept(ctx context.Context, a *Access) (*repository.Repository, error) {
	_, to, err := s.recipientTransfer(ctx, a)
	if err != nil {
		return nil, err
	}
	return s.move(ctx, a.Repo, to, a.Caller.UserID())
}

// Reject drops a's pending transfer.
func (s Transfers) Reject(ctx context.Context, a *Access) (*repository.Repository, error) {
	if _, _, err := s.recipientTransfer(ctx, a); err != nil {
		return nil, err
	}
	if err := s.stores.Transfers.Delete(ctx, a.Repo.ID); err != nil {
		return nil, err
	}
	return a.Repo, nil
}

// move gives r to a new owner: the Git directory moves first and back again
// if the database refuses; the old path redirects to the new one; a
// collaboration of the new owner ends, as the owner needs none.
func (s Transfers) move(ctx context.Context, r *repository.Repository, to *user.User, senderID int64) (*repository.Repository, error) {
	moved := *r
	moved.Owner = repository.Owner{ID: to.ID, Name: to.Name, Kind: to.Kind, Visibility: to.Visibility}
	moved.Updated = s.clock.Now()
	unlock, err := s.lockDirectories(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	journal, err := s.journalMove(ctx, r.ID, pathOf(r), pathOf(&moved))
	if err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return nil, errs.Invalid("repository already exists [uname: "+to.Name+", name: "+r.Name+"]", "NewOwner")
		}
		return nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.DeleteRedirect(ctx, to.ID, moved.LowerName); errs.IgnoreNotFound(err) != nil {
			return err
		}
		if err := tx.Repos.Update(ctx, &moved); err != nil {
			return errs.AsInvalid(err, errs.ErrConflict, "NewOwner")
		}
		if err := tx.Repos.AddRedirect(ctx, r.Owner.ID, r.LowerName, r.ID); err != nil {
			return err
		}
		if err := tx.Collaborators.Remove(ctx, r.ID, to.ID); errs.IgnoreNotFound(err) != nil {
			return err
		}
		if err := errs.IgnoreNotFound(tx.Transfers.Delete(ctx, r.ID)); err != nil {
			return err
		}
		return s.events.RepositoryMoved(ctx, tx, ports.RepoMoveEvent{Repo: &moved, SenderID: senderID,
			OldOwnerID: r.Owner.ID, OldOwner: r.Owner.Name, OldName: r.Name})
	})
	s.settleMove(ctx, journal, err)
	if err != nil {
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}
