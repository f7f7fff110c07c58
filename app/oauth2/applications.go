package oauth2

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/ports"
)

// Applications are the use cases of a user's OAuth2 applications.
type Applications struct{ *Service }

// Applications returns the application use cases.
func (s *Service) Applications() Applications { return Applications{s} }

// ApplicationInput is what creating or editing an application sets.
type ApplicationInput struct {
	Name                       string
	RedirectURIs               []string
	Confidential               bool
	SkipSecondaryAuthorization bool
}

// clientSecretPrefix marks Depot's client secrets as Gitea marks its own.
const clientSecretPrefix = "gto_"

// List lists the user's applications.
func (s Applications) List(ctx context.Context, userID int64, opts ports.ListOptions) ([]*oauth2.Application, int64, error) {
	return s.stores.OAuth2Apps.ListByUser(ctx, userID, opts)
}

// Get returns one of the user's applications; another's is not found.
func (s Applications) Get(ctx context.Context, userID, id int64) (*oauth2.Application, error) {
	return s.stores.OAuth2Apps.GetByID(ctx, userID, id)
}

// Create registers an application with a new client id and returns it with
// its client secret, which is shown this once.
func (s Applications) Create(ctx context.Context, userID int64, in ApplicationInput) (*oauth2.Application, string, error) {
	in.Name = strings.TrimSpace(in.Name)
	if err := oauth2.ValidateApplication(in.Name, in.RedirectURIs); err != nil {
		return nil, "", err
	}
	now := s.clock.Now()
	a := &oauth2.Application{UserID: userID, Name: in.Name, ClientID: uuid.NewString(),
		RedirectURIs: in.RedirectURIs, Confidential: in.Confidential,
		SkipSecondaryAuthorization: in.SkipSecondaryAuthorization, Created: now, Updated: now}
	secret, err := s.newSecret(a)
	if err != nil {
		return nil, "", err
	}
	if err := s.stores.OAuth2Apps.Create(ctx, a); err != nil {
		return nil, "", err
	}
	return a, secret, nil
}

// Update edits one of the user's applications and, as Gitea's API does,
// makes it a new client secret, returned this once; the old one stops working.
func (s Applications) Update(ctx context.Context, userID, id int64, in ApplicationInput) (*oauth2.Application, string, error) {
	in.Name = strings.TrimSpace(in.Name)
	if err := oauth2.ValidateApplication(in.Name, in.RedirectURIs); err != nil {
		return nil, "", err
	}
	var a *oauth2.Application
	var secret string
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		if a, err = tx.OAuth2Apps.GetByID(ctx, userID, id); err != nil {
			return err
		}
		a.Name, a.RedirectURIs, a.Confidential = in.Name, in.RedirectURIs, in.Confidential
		a.SkipSecondaryAuthorization, a.Updated = in.SkipSecondaryAuthorization, s.clock.Now()
		if secret, err = s.newSecret(a); err != nil {
			return err
		}
		return tx.OAuth2Apps.Update(ctx, a)
	})
	if err != nil {
		return nil, "", err
	}
	return a, secret, nil
}

// Delete removes one of the user's applications; its grants go with it, so
// every token it was given stops working.
func (s Applications) Delete(ctx context.Context, userID, id int64) error {
	if err := s.stores.OAuth2Apps.Delete(ctx, userID, id); err != nil {
		return err
	}
	s.bearers.forgetApp(id)
	return nil
}

// newSecret makes a client secret and sets its salted hash on a.
func (s Applications) newSecret(a *oauth2.Application) (string, error) {
	raw, err := s.secrets.TokenSecret()
	if err != nil {
		return "", err
	}
	salt, err := s.secrets.Salt()
	if err != nil {
		return "", err
	}
	secret := clientSecretPrefix + raw
	a.SecretSalt, a.SecretHash = salt, oauth2.HashSecret(salt, secret)
	return secret, nil
}
