package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

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
