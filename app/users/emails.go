package users

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Emails are the use cases of accounts' e-mail addresses: the caller's own,
// and the administrators' search through everybody's.
type Emails struct{ *Service }

// Emails returns the e-mail address use cases.
func (s *Service) Emails() Emails { return Emails{s} }

// maxEmailsPerCall bounds one add or delete call.
const maxEmailsPerCall = 50

// List lists the addresses of the user with id.
func (s Emails) List(ctx context.Context, userID int64) ([]*user.Email, error) {
	return s.stores.Emails.ListByUser(ctx, userID)
}

// Add adds addresses to the user with id, all or none, and returns
// all of the user's addresses after the change, read in the same
// transaction: Gitea's AddEmail answers GetEmailAddresses of the doer, not
// just the new ones.
func (s Emails) Add(ctx context.Context, userID int64, addrs []string) ([]*user.Email, error) {
	if len(addrs) == 0 {
		return nil, errs.Invalid("Required", "Emails")
	}
	if len(addrs) > maxEmailsPerCall {
		return nil, errs.Invalid("too many addresses in one call", "Emails")
	}
	seen := map[string]bool{}
	for _, a := range addrs {
		if err := user.ValidateEmail("Emails", a); err != nil {
			return nil, err
		}
		if seen[strings.ToLower(a)] {
			return nil, errs.Invalid("duplicate address", "Emails")
		}
		seen[strings.ToLower(a)] = true
	}
	activated := !s.settings.RequireEmailConfirmation
	var all []*user.Email
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for _, a := range addrs {
			e := &user.Email{UserID: userID, Email: a, LowerEmail: strings.ToLower(a), Activated: activated}
			if err := tx.Emails.Add(ctx, e); err != nil {
				return errs.AsInvalid(err, errs.ErrConflict, "Emails")
			}
		}
		var err error
		all, err = tx.Emails.ListByUser(ctx, userID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// Delete removes addresses of the user with id, all or none. The
// primary address cannot be removed.
func (s Emails) Delete(ctx context.Context, userID int64, addrs []string) error {
	if len(addrs) == 0 {
		return errs.Invalid("Required", "Emails")
	}
	if len(addrs) > maxEmailsPerCall {
		return errs.Invalid("too many addresses in one call", "Emails")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for _, a := range addrs {
			e, err := tx.Emails.GetByEmail(ctx, a)
			if errors.Is(err, errs.ErrNotFound) || (err == nil && e.UserID != userID) {
				return errs.NotFound("email does not exist")
			}
			if err != nil {
				return err
			}
			if e.Primary {
				return errs.Invalid("the primary address cannot be deleted", "Emails")
			}
			if err := tx.Emails.Delete(ctx, userID, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// Search lists addresses of all users, for administrators.
func (s Emails) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]*user.EmailOwner, int64, error) {
	return s.stores.Emails.Search(ctx, strings.ToLower(strings.TrimSpace(keyword)), opts)
}
