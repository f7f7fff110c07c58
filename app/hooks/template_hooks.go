package hooks

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// copyTemplateHooks gives a repository generated from a template with its
// webhooks (e.HooksFrom set) a copy of each of the template's hooks, as
// Gitea's GenerateWebhooks does: kind, URL, method, content type, events,
// branch filter, chat settings, active flag, secret and authorization
// header. A sealed value is bound to its hook's row, so each is opened with
// the template hook's label and sealed again for the copy's; one that no
// longer opens (the site key changed) is left out, as the template's own
// deliveries cannot use it either.
func (d *Dispatcher) copyTemplateHooks(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	if e.HooksFrom == 0 {
		return nil
	}
	tpl, err := allHooks(ctx, tx, hook.RepoScope(e.HooksFrom))
	if err != nil {
		return err
	}
	now := e.Repo.Created.UTC().Truncate(time.Microsecond)
	for _, h := range tpl {
		open, err := d.seal.open(h)
		if err != nil {
			d.log.Warn("copying a template's hook without its sealed values", "hook", h.ID, "err", err)
			bare := *h
			bare.Secret, bare.AuthorizationHeader = "", ""
			open = &bare
		}
		c := open.CopyTo(hook.RepoScope(e.Repo.ID), now)
		// The row is written without its secrets, which are then sealed for
		// its id, as Service.Create does.
		row := *c
		row.Secret, row.AuthorizationHeader = "", ""
		if err := tx.Hooks.Create(ctx, &row); err != nil {
			return err
		}
		if c.Secret == "" && c.AuthorizationHeader == "" {
			continue
		}
		c.ID = row.ID
		sealed, err := d.seal.seal(c)
		if err != nil {
			return err
		}
		if err := tx.Hooks.Update(ctx, sealed); err != nil {
			return err
		}
	}
	return nil
}
