package hooks

import (
	"context"
	"errors"
	"strconv"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// A hook's secret and authorization header are stored sealed under the
// site key, each bound to its hook's row and field: a sealed value copied
// into another row, or into the other field, does not open there, so
// whoever can write the database cannot make a hook of their choosing sign
// with another hook's secret or send another hook's credentials. The
// hooks the application handles (Service's answers, the dispatcher's
// deliveries) carry them open; the stores only ever see them sealed.

// The sealed fields, as their labels name them.
const (
	fieldSecret        = "secret"
	fieldAuthorization = "authorization_header"
)

// errSealedSecret is what a delivery records when its hook's stored secret
// or authorization header cannot be opened (the site key changed).
var errSealedSecret = errors.New("the hook's stored secret or authorization header cannot be read; set them again")

// sealLabel binds a sealed value to hook id's field.
func sealLabel(id int64, field string) string {
	return "webhook:" + strconv.FormatInt(id, 10) + ":" + field
}

// sealer seals and opens hooks' secrets with the site's box.
type sealer struct{ box ports.SecretBox }

// seal returns a copy of h (whose ID is set) with its secret and
// authorization header sealed; empty values stay empty.
func (s sealer) seal(h *hook.Hook) (*hook.Hook, error) {
	out := *h
	var err error
	if out.Secret, err = s.sealField(h.ID, fieldSecret, h.Secret); err != nil {
		return nil, err
	}
	if out.AuthorizationHeader, err = s.sealField(h.ID, fieldAuthorization, h.AuthorizationHeader); err != nil {
		return nil, err
	}
	return &out, nil
}

func (s sealer) sealField(id int64, field, plain string) (string, error) {
	if plain == "" {
		return "", nil
	}
	return s.box.Seal([]byte(plain), sealLabel(id, field))
}

// open returns a copy of h, as stored, with its secret and authorization
// header opened; errSealedSecret when either cannot be.
func (s sealer) open(h *hook.Hook) (*hook.Hook, error) {
	out := *h
	var err error
	if out.Secret, err = s.openField(h.ID, fieldSecret, h.Secret); err != nil {
		return nil, err
	}
	if out.AuthorizationHeader, err = s.openField(h.ID, fieldAuthorization, h.AuthorizationHeader); err != nil {
		return nil, err
	}
	return &out, nil
}

func (s sealer) openField(id int64, field, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	plain, err := s.box.Open(sealed, sealLabel(id, field))
	if err != nil {
		return "", errSealedSecret
	}
	return string(plain), nil
}

// adoptPage is how many hooks adoptDefaultCopies reads at a time.
const adoptPage = 100

// adoptDefaultCopies re-seals the secrets of repository repoID's copies of
// the site's default hooks, which the store copied row for row (sealed for
// the default hook's row), for the copies' own rows. The repository is new
// within this transaction, so every hook it has is such a copy; a copy's
// sealed value is the very string of its default hook, which finds the
// label to open it with.
func (d *Dispatcher) adoptDefaultCopies(ctx context.Context, tx ports.Stores, repoID int64) error {
	copies, err := allHooks(ctx, tx, hook.RepoScope(repoID))
	if err != nil {
		return err
	}
	var sealed []*hook.Hook
	for _, c := range copies {
		if c.Secret != "" || c.AuthorizationHeader != "" {
			sealed = append(sealed, c)
		}
	}
	if len(sealed) == 0 {
		return nil
	}
	defaults, err := allHooks(ctx, tx, hook.DefaultScope())
	if err != nil {
		return err
	}
	source := map[string]int64{}
	for _, h := range defaults {
		source[h.Secret], source[h.AuthorizationHeader] = h.ID, h.ID
	}
	for _, c := range sealed {
		c.Secret = d.reseal(source, c.ID, fieldSecret, c.Secret)
		c.AuthorizationHeader = d.reseal(source, c.ID, fieldAuthorization, c.AuthorizationHeader)
		if err := tx.Hooks.Update(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// reseal opens a copied value with its default hook's label and seals it
// for the copy. A value whose default hook changed since it was copied (an
// edit racing the copy) is dropped, with a warning: the hook then needs
// it set again.
func (d *Dispatcher) reseal(source map[string]int64, copyID int64, field, sealed string) string {
	if sealed == "" {
		return ""
	}
	if src, ok := source[sealed]; ok {
		plain, err := d.seal.openField(src, field, sealed)
		if err == nil {
			if out, err := d.seal.sealField(copyID, field, plain); err == nil {
				return out
			}
		}
	}
	d.log.Warn("a default hook's copy lost its "+field+"; set it again", "hook", copyID)
	return ""
}

// allHooks reads every hook of a scope, a page at a time.
func allHooks(ctx context.Context, stores ports.Stores, scope hook.Scope) ([]*hook.Hook, error) {
	var out []*hook.Hook
	for page := 1; ; page++ {
		list, _, err := stores.Hooks.List(ctx, scope, ports.ListOptions{Page: page, Limit: adoptPage})
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
		if len(list) < adoptPage {
			return out, nil
		}
	}
}
