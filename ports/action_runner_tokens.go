package ports

import (
	"context"

	"github.com/depothq/depot/domain/actions"
)

// ActionRunnerTokenStore persists runner registration tokens: at most one
// per scope (an account, a repository, or the site when the scope is zero).
type ActionRunnerTokenStore interface {
	// Latest finds the scope's token; errs.ErrNotFound when it has none.
	Latest(ctx context.Context, scope actions.Scope) (*actions.RunnerToken, error)
	// Replace removes the scope's tokens and inserts t, setting t.ID; an
	// absent account or repository is errs.ErrNotFound.
	Replace(ctx context.Context, t *actions.RunnerToken) error
	// ByHash finds the token with this hash, whatever its scope.
	ByHash(ctx context.Context, hash string) (*actions.RunnerToken, error)
}
