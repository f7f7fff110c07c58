package users

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// Tokens are the use cases of an account's access tokens.
type Tokens struct{ *Service }

// Tokens returns the access token use cases.
func (s *Service) Tokens() Tokens { return Tokens{s} }

// List lists the access tokens of the user with id.
func (s Tokens) List(ctx context.Context, userID int64, opts ports.ListOptions) ([]*token.AccessToken, int64, error) {
	return s.stores.Tokens.ListByUser(ctx, userID, opts)
}

// Create makes an access token for the user with id and returns it with
// its secret, which is shown this once and never stored.
func (s Tokens) Create(ctx context.Context, userID int64, name string, scopes []string) (*token.AccessToken, string, error) {
	name = strings.TrimSpace(name)
	if err := token.ValidateName(name); err != nil {
		return nil, "", err
	}
	parsed, err := token.ParseScopes(scopes)
	if err != nil {
		return nil, "", err
	}
	secret, err := s.secrets.TokenSecret()
	if err != nil {
		return nil, "", err
	}
	salt, err := s.secrets.Salt()
	if err != nil {
		return nil, "", err
	}
	t := &token.AccessToken{
		UserID: userID, Name: name, Salt: salt, Hash: token.HashSecret(salt, secret),
		LastEight: token.LastEightOf(secret), Scopes: parsed, Created: s.clock.Now(),
	}
	if err := s.stores.Tokens.Create(ctx, t); err != nil {
		return nil, "", errs.AsInvalid(err, errs.ErrConflict, "Name")
	}
	return t, secret, nil
}

// Delete removes a token of the user with id, named by its id or, when
// ref is not a number, by its name.
func (s Tokens) Delete(ctx context.Context, userID int64, ref string) error {
	var t *token.AccessToken
	var err error
	if id, perr := strconv.ParseInt(ref, 10, 64); perr == nil && id > 0 {
		t, err = s.stores.Tokens.GetByID(ctx, userID, id)
		if errors.Is(err, errs.ErrNotFound) {
			t, err = s.stores.Tokens.GetByName(ctx, userID, ref)
		}
	} else {
		t, err = s.stores.Tokens.GetByName(ctx, userID, ref)
	}
	if err != nil {
		return err
	}
	if err := s.stores.Tokens.Delete(ctx, t.ID); err != nil {
		return err
	}
	s.tokens.Forget(t.ID)
	return nil
}
