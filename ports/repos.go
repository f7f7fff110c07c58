package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
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

// CollaboratorUser is a collaborator with its account.
type CollaboratorUser struct {
	User *user.User
	Mode permission.AccessMode
}

// TopicCount is a topic with how many repositories use it.
type TopicCount struct {
	ID               int64
	Name             string
	RepoCount        int
	Created, Updated time.Time
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

// CollaboratorStore persists collaborators.
type CollaboratorStore interface {
	// Set adds a collaborator or changes its mode.
	Set(ctx context.Context, c repository.Collaborator) error
	// Remove drops a collaborator; errs.ErrNotFound when it was none.
	Remove(ctx context.Context, repoID, userID int64) error
	Get(ctx context.Context, repoID, userID int64) (*repository.Collaborator, error)
	// List returns one page ordered by user name, and the total.
	List(ctx context.Context, repoID int64, opts ListOptions) ([]CollaboratorUser, int64, error)
}

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

// TopicStore persists repository topics and their usage counts.
type TopicStore interface {
	// Replace sets the repository's topics (normalised, sorted), keeping
	// every topic's repository count right.
	Replace(ctx context.Context, repoID int64, topics []string) error
	// Search lists topics whose name contains keyword, most used first, one page, and the total.
	Search(ctx context.Context, keyword string, opts ListOptions) ([]TopicCount, int64, error)
}

// StarStore persists stars; starring keeps the repository's counter right.
type StarStore interface {
	// Star and Unstar are idempotent.
	Star(ctx context.Context, userID, repoID int64) error
	Unstar(ctx context.Context, userID, repoID int64) error
	IsStarred(ctx context.Context, userID, repoID int64) (bool, error)
	// ClearRepo removes every star of a repository (it went private).
	ClearRepo(ctx context.Context, repoID int64) error
	// Stargazers lists one page of the users who starred the repository, and the total.
	Stargazers(ctx context.Context, repoID int64, opts ListOptions) ([]*user.User, int64, error)
}

// Watch is one user's subscription to a repository.
type Watch struct {
	UserID, RepoID int64
	Mode           int
	Created        time.Time
}

// WatchStore persists watches; watching keeps the repository's counter right.
type WatchStore interface {
	// Watch and Unwatch are idempotent.
	Watch(ctx context.Context, userID, repoID int64) error
	Unwatch(ctx context.Context, userID, repoID int64) error
	// PruneRepo removes the watches of users who can no longer read a
	// private repository: all but its owner, its collaborators and site admins.
	PruneRepo(ctx context.Context, repoID int64) error
	// Get returns the user's watch, errs.ErrNotFound when not watching.
	Get(ctx context.Context, userID, repoID int64) (*Watch, error)
	// Watchers lists one page of the users watching the repository, and the total.
	Watchers(ctx context.Context, repoID int64, opts ListOptions) ([]*user.User, int64, error)
}

// TransferStore persists pending repository transfers, at most one per repository.
type TransferStore interface {
	// Create records an offer, replacing any earlier one.
	Create(ctx context.Context, t *repository.Transfer) error
	Get(ctx context.Context, repoID int64) (*repository.Transfer, error)
	Delete(ctx context.Context, repoID int64) error
}
