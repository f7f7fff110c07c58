package ports

import (
	"context"

	"github.com/depothq/depot/domain/hook"
)

// HookStore persists webhooks. Missing hooks, and hooks of another scope, are
// errs.ErrNotFound.
type HookStore interface {
	Create(ctx context.Context, h *hook.Hook) error
	// Update writes every field of h (found by id within h.Scope).
	Update(ctx context.Context, h *hook.Hook) error
	Delete(ctx context.Context, scope hook.Scope, id int64) error
	Get(ctx context.Context, scope hook.Scope, id int64) (*hook.Hook, error)
	// List returns one page of the scope's hooks ordered by id, and the total.
	List(ctx context.Context, scope hook.Scope, opts ListOptions) ([]*hook.Hook, int64, error)
	// ActiveFor returns, in one query, the active hooks an event of
	// repository repoID (owned by ownerID) may reach: the repository's, the
	// owner's and the system hooks.
	ActiveFor(ctx context.Context, repoID, ownerID int64) ([]*hook.Hook, error)
}

// HookDeliveryStore keeps the record of webhook deliveries (the delivery
// helper defines its methods).
type HookDeliveryStore interface{}
