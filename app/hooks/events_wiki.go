package hooks

import (
	"context"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// wikiPayload is Gitea's WikiPayload.
type wikiPayload struct {
	Action     string `json:"action"`
	Repository any    `json:"repository"`
	Sender     any    `json:"sender"`
	Page       string `json:"page"`
	Comment    string `json:"comment"`
}

// WikiChanged queues a wiki event (created, edited, deleted) to the hooks
// of e.Repo that hear it, with the repository as its owner sees it, as
// Gitea's notifier renders it.
func (d *Dispatcher) WikiChanged(ctx context.Context, tx ports.Stores, e ports.WikiEvent) error {
	if !d.settings.EnableWebhooks {
		return nil
	}
	hs, err := d.hooksFor(ctx, tx, e.Repo, hook.EventWiki)
	if err != nil || len(hs) == 0 {
		return err
	}
	rc, err := d.repoContext(ctx, tx, e.SenderID, e.Repo, nil)
	if err != nil {
		return err
	}
	p := &wikiPayload{Action: e.Action, Repository: rc.repository(rc.repo, rc.owner, true),
		Sender: rc.payloads.User(rc.sender), Page: e.Page, Comment: e.Comment}
	return d.enqueueAll(ctx, tx, hs, e.Repo.ID, rc.eventPayload(hook.EventWiki, p, e.Repo))
}
