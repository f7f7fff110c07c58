package ports

import (
	"context"

	"github.com/depothq/depot/domain/actions"
)

// ActionVariableStore persists workflow variables. A variable's name is
// unique within its scope (an account or a repository); names are stored
// and matched as given, so callers pass them upper-cased.
type ActionVariableStore interface {
	// Create inserts v and sets v.ID; a name the scope already has is
	// errs.ErrConflict, an absent account or repository errs.ErrNotFound.
	Create(ctx context.Context, v *actions.Variable) error
	// Get finds the scope's variable with this name.
	Get(ctx context.Context, scope actions.Scope, name string) (*actions.Variable, error)
	// List returns one page of the scope's variables ordered by name, and the total.
	List(ctx context.Context, scope actions.Scope, opts ListOptions) ([]*actions.Variable, int64, error)
	// Update writes v's name, data, description and updated time to the
	// scope's variable with v's id; a name another of the scope's variables
	// has is errs.ErrConflict.
	Update(ctx context.Context, v *actions.Variable) error
	// Delete removes the scope's variable with this name.
	Delete(ctx context.Context, scope actions.Scope, name string) error
}
