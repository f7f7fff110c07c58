package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/user"
)

// PublicKeyStore persists accounts' SSH public keys. A fingerprint is unique
// site-wide, across accounts' keys and deploy keys; a title is unique per
// account. An account's keys go with the account.
type PublicKeyStore interface {
	// Create inserts k and sets k.ID. A fingerprint in use is
	// user.ErrKeyInUse (another account's key or one of the owner's) or
	// user.ErrKeyIsDeployKey; a title the owner uses is
	// user.ErrKeyTitleInUse; a missing owner is errs.ErrNotFound.
	Create(ctx context.Context, k *user.PublicKey) error
	// Get returns one of the owner's keys; another account's is not found.
	Get(ctx context.Context, ownerID, id int64) (*user.PublicKey, error)
	// GetByFingerprint finds the key with this fingerprint, whoever owns it
	// (the SSH server's lookup).
	GetByFingerprint(ctx context.Context, fingerprint string) (*user.PublicKey, error)
	// List returns one page of the owner's keys ordered by id and the total;
	// fingerprint filters when non-empty.
	List(ctx context.Context, ownerID int64, fingerprint string, opts ListOptions) ([]*user.PublicKey, int64, error)
	// Delete removes one of the owner's keys; another account's is not found.
	Delete(ctx context.Context, ownerID, id int64) error
	// TouchLastUsed records that the key signed in at t.
	TouchLastUsed(ctx context.Context, id int64, t time.Time) error
}
