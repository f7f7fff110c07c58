package hooks

import (
	"context"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// releasePayload is Gitea's ReleasePayload.
type releasePayload struct {
	Action     string `json:"action"`
	Release    any    `json:"release"`
	Repository any    `json:"repository"`
	Sender     any    `json:"sender"`
}

// ReleaseChanged queues a release event (published, updated, deleted) to
// the hooks of e.Repo that hear it. As Gitea's notifier renders it, the
// release is the API's, with its assets, and the repository shows the
// sender's permissions in it.
func (d *Dispatcher) ReleaseChanged(ctx context.Context, tx ports.Stores, e ports.ReleaseEvent) error {
	if !d.settings.EnableWebhooks {
		return nil
	}
	hs, err := d.hooksFor(ctx, tx, e.Repo, hook.EventRelease)
	if err != nil || len(hs) == 0 {
		return err
	}
	pc, err := d.payloadContext(ctx, tx, e.Repo, e.SenderID)
	if err != nil {
		return err
	}
	if err := pc.loadSenderPermission(ctx, tx); err != nil {
		return err
	}
	hr := ports.HookRelease{Release: e.Release, Repo: e.Repo}
	if e.Release.PublisherID == pc.sender.ID {
		hr.Publisher = pc.sender
	} else if us, err := tx.Users.GetByIDs(ctx, []int64{e.Release.PublisherID}); err != nil {
		return err
	} else if len(us) == 1 {
		hr.Publisher = us[0]
	}
	if hr.Assets, err = tx.ReleaseAssets.List(ctx, e.Release.ID); err != nil {
		return err
	}
	p := &releasePayload{Action: e.Action, Release: d.payloads.Release(hr),
		Repository: pc.senderRepository(), Sender: d.payloads.User(pc.sender)}
	ep := pc.base(hook.EventRelease, p, e.Release.TagName, refTypeTag)
	return d.enqueueAll(ctx, tx, hs, e.Repo.ID, ep)
}
