package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/user"
)

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
