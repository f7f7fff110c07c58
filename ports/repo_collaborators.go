package ports

import (
	"context"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// CollaboratorUser is a collaborator with its account.
type CollaboratorUser struct {
	User *user.User
	Mode permission.AccessMode
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
