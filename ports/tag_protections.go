package ports

import (
	"context"

	"github.com/depothq/depot/domain/protection"
)

// TagProtectionStore persists a repository's tag protection rules with their
// allowlists. A name pattern is unique per repository (errs.ErrConflict); the
// allowlisted users and teams must exist (a missing one is errs.ErrNotFound),
// and leave the allowlists when they are deleted, as the rules go with their
// repository.
type TagProtectionStore interface {
	// Create inserts r with its allowlists and sets r.ID.
	Create(ctx context.Context, r *protection.TagRule) error
	// Get finds one of the repository's rules; another repository's is not found.
	Get(ctx context.Context, repoID, id int64) (*protection.TagRule, error)
	// List returns one page of the repository's rules ordered by id, and the total.
	List(ctx context.Context, repoID int64, opts ListOptions) ([]*protection.TagRule, int64, error)
	// ListAll returns every rule of the repository ordered by id, for
	// deciding on a push (a repository has few).
	ListAll(ctx context.Context, repoID int64) ([]*protection.TagRule, error)
	// Update writes r's pattern, allowlists and Updated time.
	Update(ctx context.Context, r *protection.TagRule) error
	// Delete removes one of the repository's rules.
	Delete(ctx context.Context, repoID, id int64) error
}
