package users

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/errs"

	"github.com/depothq/depot/ports"
)

// BootstrapAdminName is the administrator a new site starts with.
const BootstrapAdminName = "admin"

// EnsureAdmin creates the administrator "admin" with a random password when
// the site has no account at all, and returns that password (empty when
// nothing was created). The password is to be shown once and not stored.
func (s *Service) EnsureAdmin(ctx context.Context) (string, error) {
	n, err := s.stores.Users.Count(ctx)
	if err != nil || n > 0 {
		return "", err
	}
	pw, err := s.secrets.Password()
	if err != nil {
		return "", err
	}
	no := false
	_, err = s.Admin().Create(ctx, CreateInput{
		Name: BootstrapAdminName, Email: "admin@" + s.noReply[len("noreply."):], Password: pw,
		IsAdmin: true, MustChangePassword: &no, SkipPasswordPolicy: true,
	})
	if err != nil {
		// Another process created the first account at the same moment.
		if errors.Is(err, errs.ErrInvalid) {
			if n, cerr := s.stores.Users.Count(ctx); cerr == nil && n > 0 {
				return "", nil
			}
		}
		return "", err
	}
	return pw, nil
}

// EnableTOTP enrols a new authenticator secret for the account called name
// and returns its otpauth:// URI.
func (s *Service) EnableTOTP(ctx context.Context, name string) (string, error) {
	var uri string
	var id int64
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByName(ctx, name)
		if err != nil {
			return err
		}
		secret, link, err := s.otp.NewSecret(s.settings.Name, u.Name)
		if err != nil {
			return err
		}
		u.TOTPSecret, uri, u.Updated = secret, link, s.clock.Now()
		id = u.ID
		return tx.Users.Update(ctx, u)
	})
	s.tokens.ForgetUser(id)
	return uri, err
}

// DisableTOTP removes two-factor sign-in from the account called name.
func (s *Service) DisableTOTP(ctx context.Context, name string) error {
	var id int64
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByName(ctx, name)
		if err != nil {
			return err
		}
		u.TOTPSecret, u.Updated = "", s.clock.Now()
		id = u.ID
		return tx.Users.Update(ctx, u)
	})
	s.tokens.ForgetUser(id)
	return err
}
