package ports

import (
	"context"

	"github.com/depothq/depot/domain/release"
)

// ReleaseStore persists a repository's releases. A tag name has at most one
// release per repository (errs.ErrConflict); the releases go with their
// repository. Every write keeps the repository's release counter (its
// published releases, Repository.NumReleases).
type ReleaseStore interface {
	// Create inserts r and sets r.ID.
	Create(ctx context.Context, r *release.Release) error
	// Get finds one of the repository's releases; another repository's is not found.
	Get(ctx context.Context, repoID, id int64) (*release.Release, error)
	// GetByTag finds the repository's release of a tag (case-sensitive).
	GetByTag(ctx context.Context, repoID int64, tag string) (*release.Release, error)
	// List returns one page of the repository's releases that pass f, newest
	// first (created, then id, descending), and how many pass f.
	List(ctx context.Context, repoID int64, f release.Filter, opts ListOptions) ([]*release.Release, int64, error)
	// Latest is the newest published release that is no pre-release.
	Latest(ctx context.Context, repoID int64) (*release.Release, error)
	// Update writes every field of r but its repository, id and creation time.
	Update(ctx context.Context, r *release.Release) error
	// Delete removes one of the repository's releases.
	Delete(ctx context.Context, repoID, id int64) error
	// DraftByTags turns the repository's releases of these tags back into
	// drafts without a commit (their tags were deleted by a push).
	DraftByTags(ctx context.Context, repoID int64, tags []string) error
}
