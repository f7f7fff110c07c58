package users

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Keys are the use cases of accounts' SSH public keys.
type Keys struct{ *Service }

// Keys returns the SSH public key use cases.
func (s *Service) Keys() Keys { return Keys{s} }

// List lists one page of owner's SSH keys as c may see them; a
// non-empty fingerprint keeps only that key. An account c may not see is
// absent (the spec's visibility rule for accounts named in the path).
func (s Keys) List(ctx context.Context, c auth.Caller, owner *user.User, fingerprint string, opts ports.ListOptions) ([]*user.PublicKey, int64, error) {
	if !user.CanSee(Viewer(c), owner) {
		return nil, 0, errs.NotFound("user does not exist")
	}
	return s.stores.PublicKeys.List(ctx, owner.ID, fingerprint, opts)
}

// Get returns one of ownerID's keys; another account's key is absent.
func (s Keys) Get(ctx context.Context, ownerID, id int64) (*user.PublicKey, error) {
	return s.stores.PublicKeys.Get(ctx, ownerID, id)
}

// Add registers an OpenSSH public key (an authorized_keys line or
// an RFC 4716 block) for owner. The key is stored without its comment; a key
// any account or any repository already uses, or a title owner already
// gave a key, is refused with a 422 naming the field, as Gitea does.
func (s Keys) Add(ctx context.Context, owner *user.User, title, key string) (*user.PublicKey, error) {
	if !user.CanHoldKeys(owner) {
		return nil, errs.NotFound("user does not exist")
	}
	title, err := user.NormalizeKeyTitle("Title", title)
	if err != nil {
		return nil, err
	}
	content, fingerprint, err := s.sshKeys.Parse("Key", key)
	if err != nil {
		return nil, err
	}
	// Whole seconds, as Gitea keeps them, so the answer to the POST is what
	// every later read shows.
	now := s.clock.Now().Truncate(time.Second)
	k := &user.PublicKey{
		OwnerID: owner.ID, Title: title, Content: content, Fingerprint: fingerprint, Created: now, LastUsed: now,
	}
	if err := s.stores.PublicKeys.Create(ctx, k); err != nil {
		field := "Key"
		if errors.Is(err, user.ErrKeyTitleInUse) {
			field = "Title"
		}
		return nil, errs.AsInvalid(err, errs.ErrConflict, field)
	}
	return k, nil
}

// Delete removes one of ownerID's keys; another account's key is
// absent, so a caller cannot learn which ids other accounts hold.
func (s Keys) Delete(ctx context.Context, ownerID, id int64) error {
	return s.stores.PublicKeys.Delete(ctx, ownerID, id)
}
