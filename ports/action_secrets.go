package ports

import (
	"context"

	"github.com/depothq/depot/domain/actions"
)

// ActionSecretStore persists workflow secrets. A name (upper case, as
// actions.NormalizeSecretName makes it) is unique per owner
// (errs.ErrConflict); the store keeps Data as it is given, which the
// application seals first. A secret goes with its user, organisation or
// repository.
type ActionSecretStore interface {
	// Create inserts s and sets s.ID.
	Create(ctx context.Context, s *actions.Secret) error
	// Get finds owner's secret called name.
	Get(ctx context.Context, owner actions.SecretOwner, name string) (*actions.Secret, error)
	// Update replaces the data and description of the secret s.ID of s's owner.
	Update(ctx context.Context, s *actions.Secret) error
	// List returns one page of owner's secrets ordered by name, and the total.
	List(ctx context.Context, owner actions.SecretOwner, opts ListOptions) ([]*actions.Secret, int64, error)
	// Delete removes owner's secret called name.
	Delete(ctx context.Context, owner actions.SecretOwner, name string) error
}
