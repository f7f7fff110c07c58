package ports

import (
	"context"

	"github.com/depothq/depot/domain/repository"
)

// DeployKeyStore persists deploy keys. A key's fingerprint is unique per
// repository (errs.ErrConflict), as is its title.
type DeployKeyStore interface {
	Create(ctx context.Context, k *repository.DeployKey) error
	Get(ctx context.Context, repoID, id int64) (*repository.DeployKey, error)
	// List returns one page ordered by id and the total; fingerprint filters when non-empty.
	List(ctx context.Context, repoID int64, fingerprint string, opts ListOptions) ([]*repository.DeployKey, int64, error)
	Delete(ctx context.Context, repoID, id int64) error
	// GetByFingerprint finds the repository's key with this fingerprint
	// (the SSH server's lookup once it knows the repository asked for).
	GetByFingerprint(ctx context.Context, repoID int64, fingerprint string) (*repository.DeployKey, error)
	// FingerprintInUse reports whether any repository has a deploy key
	// with this fingerprint (the SSH server's sign-in check).
	FingerprintInUse(ctx context.Context, fingerprint string) (bool, error)
}
