package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// ActionRunnerStore persists Actions runners. A scope's runners are those
// registered with its token; lookups by scope never find another scope's
// runner (errs.ErrNotFound).
type ActionRunnerStore interface {
	// Create inserts r and sets r.ID; an absent account or repository is
	// errs.ErrNotFound.
	Create(ctx context.Context, r *actions.Runner) error
	// ByUUID finds a runner by its uuid, whatever its scope.
	ByUUID(ctx context.Context, uuid string) (*actions.Runner, error)
	// Get finds the scope's runner id.
	Get(ctx context.Context, scope actions.Scope, id int64) (*actions.Runner, error)
	// List returns one page of the scope's runners in id order, and the total.
	List(ctx context.Context, scope actions.Scope, opts ListOptions) ([]*actions.Runner, int64, error)
	// Delete removes the scope's runner id.
	Delete(ctx context.Context, scope actions.Scope, id int64) error
	// Declare sets the runner's labels and version.
	Declare(ctx context.Context, id int64, labels []string, version string) error
	// Seen records a request of the runner at now, and a report on a
	// task when active.
	Seen(ctx context.Context, id int64, now time.Time, active bool) error
}
