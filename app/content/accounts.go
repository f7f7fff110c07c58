package content

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// The accounts behind Git identities, in both directions: who owns the
// addresses of commits (branches, notes, commit listings), and which
// identity a user signs the commits and tags Depot writes with.

// usersByEmails maps lower-cased addresses to their accounts as Gitea's
// GetUserByEmail does: an activated address of an account (all found in
// one query), or an account's no-reply address. Unknown addresses map to
// nothing (or nil).
func (s *Service) usersByEmails(ctx context.Context, addrs []string) (map[string]*user.User, error) {
	accounts, err := s.stores.Emails.UsersByEmails(ctx, addrs)
	if err != nil {
		return nil, err
	}
	if err := s.noReplyAccounts(ctx, addrs, accounts); err != nil {
		return nil, err
	}
	return accounts, nil
}

// noReplyAccounts adds the accounts of the site's no-reply addresses
// (<name>@noreply.<host>) that accounts lacks, as Gitea's GetUserByEmail
// finds them: one lookup per distinct such address, which commits rarely carry.
func (s *Service) noReplyAccounts(ctx context.Context, addrs []string, accounts map[string]*user.User) error {
	suffix := "@noreply." + strings.ToLower(s.siteHost())
	for _, addr := range addrs {
		lower := strings.ToLower(addr)
		name, ok := strings.CutSuffix(lower, suffix)
		if _, known := accounts[lower]; known || !ok || name == "" {
			continue
		}
		u, err := s.stores.Users.GetByName(ctx, name)
		if errors.Is(err, errs.ErrNotFound) {
			accounts[lower] = nil
			continue
		}
		if err != nil {
			return err
		}
		accounts[lower] = u
	}
	return nil
}

// siteHost is the site's host name, the domain of no-reply addresses.
func (s *Service) siteHost() string {
	if u, err := url.Parse(s.settings.BaseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// gitIdentity is u's Git identity: the full name (else the user name) and
// the primary address, or a no-reply address when u hides it (as
// repository creation signs the initial commit). A nil u has none.
func (s *Service) gitIdentity(u *user.User) repository.Identity {
	if u == nil {
		return repository.Identity{}
	}
	name := strings.TrimSpace(u.FullName)
	if name == "" {
		name = u.Name
	}
	email := u.Email
	if u.HideEmail || email == "" {
		email = u.LowerName + "@noreply." + s.siteHost()
	}
	return repository.Identity{Name: name, Email: email}
}
