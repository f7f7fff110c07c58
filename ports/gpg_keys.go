package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// GPGKeyStore persists accounts' OpenPGP keys: a primary key with its
// subkeys. A key id (of a primary or a subkey) is registered once site-wide.
// An account's keys go with the account.
type GPGKeyStore interface {
	// Create inserts k with its subkeys and sets their ids. A key id in use
	// is user.ErrGPGKeyInUse; a missing owner is errs.ErrNotFound.
	Create(ctx context.Context, k *user.GPGKey) error
	// Get returns one of the owner's primary keys with its subkeys; another
	// account's key, or a subkey's id, is not found.
	Get(ctx context.Context, ownerID, id int64) (*user.GPGKey, error)
	// GetByKeyID returns the owner's primary key whose key id is keyID.
	GetByKeyID(ctx context.Context, ownerID int64, keyID string) (*user.GPGKey, error)
	// List returns one page of the owner's primary keys ordered by id, with
	// their subkeys, and the total.
	List(ctx context.Context, ownerID int64, opts ListOptions) ([]*user.GPGKey, int64, error)
	// Delete removes one of the owner's primary keys and its subkeys.
	Delete(ctx context.Context, ownerID, id int64) error
	// MarkVerified records that the owner proved holding key id.
	MarkVerified(ctx context.Context, id int64) error
}

// GPGKeys reads OpenPGP public keys and checks signatures made with them.
type GPGKeys interface {
	// Read reads an armored public key block and returns one key per
	// primary key in it (subkeys attached, Armored set to the block, ids
	// unset). A block it cannot read is an errs.ErrInvalid naming field and
	// saying why.
	Read(field, armored string) ([]*user.GPGKey, error)
	// SignerOf returns the key id of the primary key in armored whose key or
	// subkey made the armored detached signature over one of messages; a
	// signature none of them made over any is user.ErrGPGSignatureMismatch.
	SignerOf(armored, signature string, messages []string) (string, error)
}
