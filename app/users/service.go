// Package users holds the account use cases: looking users up and searching
// them, administering accounts, their e-mail addresses, settings and access
// tokens, and the first administrator of a new site. Looking accounts up
// stays on Service, as does what other packages share (Resolve, View,
// CheckNotBlocked, BlockedByAny); each resource has a focused type reached
// from Service (Tokens, Emails, Settings, Keys, Blocks, Follows, Avatars, Admin).
package users

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Service runs the account use cases.
type Service struct {
	stores  ports.Stores
	tx      ports.Transactor
	hasher  ports.PasswordHasher
	secrets ports.SecretGenerator
	otp     ports.OneTimeCodes
	clock   ports.Clock
	tokens  *auth.TokenCache
	git     ports.GitStorage
	sshKeys ports.SSHKeys
	gpg     ports.GPGKeys
	// avatars stores uploaded account avatars.
	avatars  ports.Avatars
	settings site.Settings
	policy   user.PasswordPolicy
	noReply  string
	log      *slog.Logger
}

// NewService builds the account use cases.
func NewService(stores ports.Stores, tx ports.Transactor, hasher ports.PasswordHasher, secrets ports.SecretGenerator,
	otp ports.OneTimeCodes, clock ports.Clock, tokens *auth.TokenCache, git ports.GitStorage, sshKeys ports.SSHKeys,
	avatars ports.Avatars, gpg ports.GPGKeys, settings site.Settings, log *slog.Logger) *Service {
	host := "localhost"
	if u, err := url.Parse(settings.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return &Service{
		stores: stores, tx: tx, hasher: hasher, secrets: secrets, otp: otp, clock: clock, tokens: tokens, git: git, sshKeys: sshKeys, avatars: avatars, gpg: gpg,
		settings: settings, policy: user.PasswordPolicy{MinLength: settings.PasswordMinLength},
		noReply: "noreply." + host, log: log,
	}
}

// forgetCached drops the token cache's copies of the accounts whose
// record changed (counters, avatar), so that their next request reads it
// afresh. The use-case tests run without a cache.
func (s *Service) forgetCached(ids ...int64) {
	if s.tokens == nil {
		return
	}
	for _, id := range ids {
		s.tokens.ForgetUser(id)
	}
}

// RenamedError says that a name now belongs to another account name; the
// HTTP adapter answers it with a redirect.
type RenamedError struct {
	OldName, NewName string
}

// Error describes the redirect.
func (e *RenamedError) Error() string { return "user " + e.OldName + " was renamed to " + e.NewName }

// Viewer returns the visibility facts of a caller.
func Viewer(c auth.Caller) user.Viewer {
	if c.User == nil {
		return user.Viewer{}
	}
	return user.Viewer{ID: c.User.ID, IsAdmin: c.User.IsAdmin, PublicOnly: c.Scopes().PublicOnly()}
}

// Resolve finds the account called name for caller c. A name freed by a
// rename yields a *RenamedError naming the new name, unless c may not see the
// account it now belongs to: a redirect would reveal where a hidden account
// went, so that answers as an unknown name does (errs.ErrNotFound).
func (s *Service) Resolve(ctx context.Context, c auth.Caller, name string) (*user.User, error) {
	u, err := s.stores.Users.GetByName(ctx, name)
	if err == nil {
		return u, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	id, rerr := s.stores.Users.LookupRedirect(ctx, name)
	if rerr != nil {
		if errors.Is(rerr, errs.ErrNotFound) {
			return nil, errs.NotFound("user does not exist")
		}
		return nil, rerr
	}
	target, terr := s.stores.Users.GetByID(ctx, id)
	if terr != nil {
		return nil, terr
	}
	if !user.CanSee(Viewer(c), target) {
		return nil, errs.NotFound("user does not exist")
	}
	return nil, &RenamedError{OldName: name, NewName: target.Name}
}

// View finds the account called name as the caller may see it: accounts the
// caller may not see are reported as absent.
func (s *Service) View(ctx context.Context, c auth.Caller, name string) (*user.User, error) {
	u, err := s.Resolve(ctx, c, name)
	if err != nil {
		return nil, err
	}
	if !user.CanSee(Viewer(c), u) {
		return nil, errs.NotFound("user does not exist")
	}
	return u, nil
}

// ViewByID finds the account with this id as the caller may see it:
// accounts the caller may not see are reported as absent.
func (s *Service) ViewByID(ctx context.Context, c auth.Caller, id int64) (*user.User, error) {
	u, err := s.stores.Users.GetByID(ctx, id)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.NotFound("user does not exist")
		}
		return nil, err
	}
	if !user.CanSee(Viewer(c), u) {
		return nil, errs.NotFound("user does not exist")
	}
	return u, nil
}

// ShownEmail is the address of u that c may read.
func (s *Service) ShownEmail(c auth.Caller, u *user.User) string {
	return user.ShownEmail(Viewer(c), u, s.noReply)
}

// SearchQuery is a user search.
type SearchQuery struct {
	Keyword string
	UID     int64
	ports.ListOptions
}

// Search lists accounts whose name or full name contains the keyword, limited
// to those the caller may see.
func (s *Service) Search(ctx context.Context, c auth.Caller, q SearchQuery) ([]*user.User, int64, error) {
	v := Viewer(c)
	return s.stores.Users.Search(ctx, ports.UserSearch{
		Keyword:       strings.ToLower(strings.TrimSpace(q.Keyword)),
		UID:           q.UID,
		Visibilities:  user.VisibleKinds(v),
		IncludeUserID: v.ID,
		Kind:          user.KindIndividual,
		ListOptions:   q.ListOptions,
	})
}
