package ports

import (
	"context"

	"github.com/depothq/depot/domain/packages"
)

// PackageCleanupRuleStore persists the owners' package cleanup rules, at
// most one per owner and package type.
type PackageCleanupRuleStore interface {
	// Create inserts r and sets its ID; a rule of that owner and type
	// already there is a conflict.
	Create(ctx context.Context, r *packages.CleanupRule) error
	// Get finds the owner's rule by ID.
	Get(ctx context.Context, ownerID, id int64) (*packages.CleanupRule, error)
	// List pages the owner's rules by type, with the total.
	List(ctx context.Context, ownerID int64, opts ListOptions) ([]*packages.CleanupRule, int64, error)
	// Update writes everything of r but its owner and creation time; a type
	// another rule of the owner has is a conflict.
	Update(ctx context.Context, r *packages.CleanupRule) error
	// Delete removes the owner's rule by ID.
	Delete(ctx context.Context, ownerID, id int64) error
	// Enabled returns at most n enabled rules of every owner whose ID is
	// above afterID, by ID.
	Enabled(ctx context.Context, afterID int64, n int) ([]*packages.CleanupRule, error)
}
