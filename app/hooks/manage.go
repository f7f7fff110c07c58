package hooks

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// AdminEditOptions are an admin hook's edit options: the common ones, and
// IsSystem, which moves the hook between the system and default kinds.
type AdminEditOptions struct {
	hook.EditOptions
	IsSystem *bool
}

// now is the clock at the precision every store keeps, so that a hook
// answered at creation equals the hook read back.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// List returns one page of the scope's hooks and the total.
func (s *Service) List(ctx context.Context, scope hook.Scope, opts ports.ListOptions) ([]*hook.Hook, int64, error) {
	return s.stores.Hooks.List(ctx, scope, opts)
}

// Get returns one of the scope's hooks.
func (s *Service) Get(ctx context.Context, scope hook.Scope, id int64) (*hook.Hook, error) {
	return s.stores.Hooks.Get(ctx, scope, id)
}

// Create validates o and adds the hook to scope (a repository's, an
// account's, or the site's system or default hooks).
func (s *Service) Create(ctx context.Context, scope hook.Scope, o hook.CreateOptions) (*hook.Hook, error) {
	h, err := hook.New(scope, o, s.now())
	if err != nil {
		return nil, err
	}
	if err := s.stores.Hooks.Create(ctx, h); err != nil {
		return nil, err
	}
	return h, nil
}

// Edit changes one of the scope's hooks by o, read and written in one
// transaction, and returns it as stored.
func (s *Service) Edit(ctx context.Context, scope hook.Scope, id int64, o hook.EditOptions) (*hook.Hook, error) {
	return s.edit(ctx, scope, id, o, nil)
}

// EditAdmin changes one of the site's hooks, of either kind.
func (s *Service) EditAdmin(ctx context.Context, id int64, o AdminEditOptions) (*hook.Hook, error) {
	return s.edit(ctx, hook.AdminScope(), id, o.EditOptions, o.IsSystem)
}

func (s *Service) edit(ctx context.Context, scope hook.Scope, id int64, o hook.EditOptions, isSystem *bool) (*hook.Hook, error) {
	var out *hook.Hook
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		h, err := tx.Hooks.Get(ctx, scope, id)
		if err != nil {
			return err
		}
		e, err := hook.Edit(h, o, s.now())
		if err != nil {
			return err
		}
		if isSystem != nil {
			e.Scope = hook.Scope{System: *isSystem, Default: !*isSystem}
		}
		if err := tx.Hooks.Update(ctx, e); err != nil {
			return err
		}
		out = e
		return nil
	})
	return out, err
}

// Delete removes one of the scope's hooks (and, with it, its deliveries).
func (s *Service) Delete(ctx context.Context, scope hook.Scope, id int64) error {
	return s.stores.Hooks.Delete(ctx, scope, id)
}
