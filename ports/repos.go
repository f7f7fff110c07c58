package ports

import (
	"context"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
)

// RepoViewer is who a repository listing is for: it sees public repositories
// of owners it may see, its own, and those it collaborates on.
type RepoViewer struct {
	UserID     int64
	IsAdmin    bool
	Restricted bool
	// PublicOnly limits the viewer to public repositories of public owners
	// (public-only tokens, anonymous callers).
	PublicOnly bool
}

// RepoSearch filters a repository listing. Every filter is optional.
type RepoSearch struct {
	// Keyword is a comma-separated list of pieces, any of which may match:
	// a piece matches a name or a topic containing it (lower-cased), with
	// IncludeDescription a description too, and "owner/name" the owner's and
	// the repository's names; with TopicOnly a piece must equal a topic.
	Keyword            string
	IncludeDescription bool
	TopicOnly          bool
	// OwnerID restricts to repositories owned by (or, unless Exclusive,
	// collaborated on by) this user.
	OwnerID   int64
	Exclusive bool
	// ExcludePrivate drops private repositories even where the viewer may see them.
	ExcludePrivate bool
	// IsPrivate, Template, Archived, Fork and Mirror filter on the flag when non-nil.
	IsPrivate, Template, Archived, Fork, Mirror *bool
	// Collaborative keeps only repositories the OwnerID user collaborates on but does not own.
	Collaborative bool
	// ForkOf lists the forks of one repository.
	ForkOf int64
	// StarredBy and WatchedBy list what one user starred or watches.
	StarredBy, WatchedBy int64
	// TeamID lists the repositories a team reaches: every repository of its
	// organisation when it includes all of them, else those it was given.
	TeamID int64
	// Sort is one of alpha, created, updated, size, id, stars, forks ("" is id); Desc reverses it.
	Sort string
	Desc bool
	// Viewer limits the result to what the viewer may see.
	Viewer RepoViewer
	ListOptions
}

// RepoStore persists repositories. Names are unique per owner,
// case-insensitively. Reads fill Owner (from the users table) and Topics.
// Missing rows are errs.ErrNotFound; taken names are errs.ErrConflict.
type RepoStore interface {
	Create(ctx context.Context, r *repository.Repository) error
	// Update writes every column of r but the counters and topics.
	Update(ctx context.Context, r *repository.Repository) error
	// Delete removes the repository and every row that belongs to it.
	Delete(ctx context.Context, id int64) error
	GetByID(ctx context.Context, id int64) (*repository.Repository, error)
	// GetByIDs finds these repositories with their owners in one query,
	// keyed by id; absent ids are left out.
	GetByIDs(ctx context.Context, ids []int64) (map[int64]*repository.Repository, error)
	// GetByName finds a repository by owner id and name.
	GetByName(ctx context.Context, ownerID int64, name string) (*repository.Repository, error)
	// GetByFullName finds a repository by owner name and name in one query.
	GetByFullName(ctx context.Context, ownerName, name string) (*repository.Repository, error)
	// Search returns one page and the total count matching.
	Search(ctx context.Context, q RepoSearch) ([]*repository.Repository, int64, error)
	// CountByOwner returns how many repositories an account owns.
	CountByOwner(ctx context.Context, ownerID int64) (int64, error)
	// NamesByOwners returns the lower-case names of the repositories each
	// of the accounts owns, in one query (owners without any are absent).
	NamesByOwners(ctx context.Context, ownerIDs []int64) (map[int64][]string, error)
	// Relations returns userID's ties to the repository (collaborator mode;
	// organisation and team ties once organisations exist).
	Relations(ctx context.Context, r permission.Repo, userID int64) (permission.Relations, error)
	// RelationsMany is Relations for several repositories in one query, keyed by repository id.
	RelationsMany(ctx context.Context, rs []permission.Repo, userID int64) (map[int64]permission.Relations, error)
	// RecountSocial recomputes the stars, watchers and forks counters from their rows.
	RecountSocial(ctx context.Context, repoID int64) error
	// SetSize records the Git repository's size in bytes.
	SetSize(ctx context.Context, repoID, size int64) error
	// SetEmpty records whether the Git repository has no commit yet.
	SetEmpty(ctx context.Context, repoID int64, empty bool) error
	// AddRedirect records that ownerID's oldName now means repoID.
	AddRedirect(ctx context.Context, ownerID int64, oldName string, repoID int64) error
	// LookupRedirect returns the repository an old owner/name points at.
	LookupRedirect(ctx context.Context, ownerID int64, oldName string) (int64, error)
	// DeleteRedirect forgets an old name (when it is taken again).
	DeleteRedirect(ctx context.Context, ownerID int64, name string) error
}
