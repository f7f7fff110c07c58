package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ReverseProxyUsers resolves the user a trusted reverse proxy names (the
// HTTP adapter decides which addresses are trusted and fills
// Credentials.ProxyUser only for them), and registers the accounts it names
// that do not exist when the site allows it, as Gitea's reverse-proxy
// authentication does.
type ReverseProxyUsers struct {
	users   ports.UserStore
	tx      ports.Transactor
	secrets ports.SecretGenerator
	clock   ports.Clock
	cfg     site.ReverseProxyAuth
}

// NewReverseProxyUsers returns nil when reverse-proxy authentication is off.
func NewReverseProxyUsers(stores ports.Stores, tx ports.Transactor, secrets ports.SecretGenerator,
	clock ports.Clock, settings site.Settings) *ReverseProxyUsers {
	if !settings.ReverseProxy.Enabled {
		return nil
	}
	return &ReverseProxyUsers{users: stores.Users, tx: tx, secrets: secrets, clock: clock, cfg: settings.ReverseProxy}
}

func (p *ReverseProxyUsers) resolve(ctx context.Context, c Credentials) (Caller, error) {
	name := strings.TrimSpace(c.ProxyUser)
	u, err := p.users.GetByName(ctx, name)
	if errors.Is(err, errs.ErrNotFound) && p.cfg.AutoRegistration {
		u, err = p.register(ctx, name, c)
	}
	if errors.Is(err, errs.ErrNotFound) {
		return Caller{}, errs.Unauthenticated(msgBadCredentials)
	}
	if err != nil {
		return Caller{}, err
	}
	if u.Kind != user.KindIndividual {
		return Caller{}, errs.Unauthenticated(msgBadCredentials)
	}
	return Caller{User: u, Method: MethodReverseProxy}, nil
}

// register creates the account the proxy names, without a password (it
// signs in through the proxy only), with the e-mail address and full name
// from their headers when the site takes them, else a random address
// @localhost as Gitea makes.
func (p *ReverseProxyUsers) register(ctx context.Context, name string, c Credentials) (*user.User, error) {
	if err := user.ValidateName("Username", name); err != nil {
		return nil, errs.Unauthenticated(msgBadCredentials)
	}
	email := ""
	if p.cfg.UseEmail {
		email = strings.TrimSpace(c.ProxyEmail)
	}
	if email == "" {
		random, err := p.secrets.TokenSecret()
		if err != nil {
			return nil, err
		}
		email = random + "@localhost"
	}
	if err := user.ValidateEmail("Email", email); err != nil {
		return nil, err
	}
	fullName := ""
	if p.cfg.UseFullName {
		fullName = strings.TrimSpace(c.ProxyFullName)
		if len(fullName) > 100 {
			fullName = fullName[:100]
		}
	}
	now := p.clock.Now()
	u := &user.User{
		Name: name, LowerName: strings.ToLower(name), Kind: user.KindIndividual, FullName: fullName, Email: email,
		IsActive: true, Visibility: user.VisibilityPublic, AllowCreateOrganization: true, MaxRepoCreation: -1,
		Theme: user.DefaultTheme, Created: now, Updated: now,
	}
	err := p.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Users.DeleteRedirect(ctx, u.LowerName); err != nil && !errors.Is(err, errs.ErrNotFound) {
			return err
		}
		if err := tx.Users.Create(ctx, u); err != nil {
			return err
		}
		return tx.Emails.Add(ctx, &user.Email{UserID: u.ID, Email: email, LowerEmail: strings.ToLower(email),
			Activated: true, Primary: true})
	})
	if errors.Is(err, errs.ErrConflict) {
		// Registered meanwhile by a concurrent request: take that account.
		return p.users.GetByName(ctx, name)
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}
