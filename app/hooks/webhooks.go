package hooks

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// Webhooks are the use cases of webhooks in every scope: a repository's,
// an account's (a user's or an organisation's), and the site's system and
// default hooks.
type Webhooks struct{ *Service }

// Webhooks returns the webhook use cases.
func (s *Service) Webhooks() Webhooks { return Webhooks{s} }

// AdminEditOptions are an admin hook's edit options: the common ones, and
// IsSystem, which moves the hook between the system and default kinds.
type AdminEditOptions struct {
	hook.EditOptions
	IsSystem *bool
}

// now is the clock at the precision every store keeps, so that a hook
// answered at creation equals the hook read back.
func (s Webhooks) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// List returns one page of the scope's hooks and the total.
func (s Webhooks) List(ctx context.Context, scope hook.Scope, opts ports.ListOptions) ([]*hook.Hook, int64, error) {
	list, total, err := s.stores.Hooks.List(ctx, scope, opts)
	if err != nil {
		return nil, 0, err
	}
	for i, h := range list {
		list[i] = s.shown(h)
	}
	return list, total, nil
}

// Get returns one of the scope's hooks.
func (s Webhooks) Get(ctx context.Context, scope hook.Scope, id int64) (*hook.Hook, error) {
	h, err := s.stores.Hooks.Get(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	return s.shown(h), nil
}

// shown is a stored hook with its secrets opened for an answer. One that
// cannot be opened (the site key changed) is answered without them rather
// than failing the listing; its deliveries fail and say why.
func (s Webhooks) shown(h *hook.Hook) *hook.Hook {
	open, err := s.seal.open(h)
	if err != nil {
		s.log.Warn("answering a hook without its sealed values", "hook", h.ID, "err", err)
		bare := *h
		bare.Secret, bare.AuthorizationHeader = "", ""
		return &bare
	}
	return open
}

// Create validates o and adds the hook to scope (a repository's, an
// account's, or the site's system or default hooks). The row is written
// first without its secrets, which are then sealed for it: the seal is
// bound to the row's id.
func (s Webhooks) Create(ctx context.Context, scope hook.Scope, o hook.CreateOptions) (*hook.Hook, error) {
	h, err := hook.New(scope, o, s.now())
	if err != nil {
		return nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		bare := *h
		bare.Secret, bare.AuthorizationHeader = "", ""
		if err := tx.Hooks.Create(ctx, &bare); err != nil {
			return err
		}
		h.ID = bare.ID
		if h.Secret == "" && h.AuthorizationHeader == "" {
			return nil
		}
		sealed, err := s.seal.seal(h)
		if err != nil {
			return err
		}
		return tx.Hooks.Update(ctx, sealed)
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// Edit changes one of the scope's hooks by o, read and written in one
// transaction, and returns it as stored.
func (s Webhooks) Edit(ctx context.Context, scope hook.Scope, id int64, o hook.EditOptions) (*hook.Hook, error) {
	return s.edit(ctx, scope, id, o, nil)
}

// EditAdmin changes one of the site's hooks, of either kind.
func (s Webhooks) EditAdmin(ctx context.Context, id int64, o AdminEditOptions) (*hook.Hook, error) {
	return s.edit(ctx, hook.AdminScope(), id, o.EditOptions, o.IsSystem)
}

func (s Webhooks) edit(ctx context.Context, scope hook.Scope, id int64, o hook.EditOptions, isSystem *bool) (*hook.Hook, error) {
	var out *hook.Hook
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		h, err := tx.Hooks.Get(ctx, scope, id)
		if err != nil {
			return err
		}
		// Values that cannot be opened are lost already: the edit may set
		// them again.
		e, err := hook.Edit(s.shown(h), o, s.now())
		if err != nil {
			return err
		}
		if isSystem != nil {
			e.Scope = hook.Scope{System: *isSystem, Default: !*isSystem}
		}
		sealed, err := s.seal.seal(e)
		if err != nil {
			return err
		}
		if err := tx.Hooks.Update(ctx, sealed); err != nil {
			return err
		}
		out = e
		return nil
	})
	return out, err
}

// Delete removes one of the scope's hooks (and, with it, its deliveries).
func (s Webhooks) Delete(ctx context.Context, scope hook.Scope, id int64) error {
	return s.stores.Hooks.Delete(ctx, scope, id)
}
