package hooks

import (
	"context"

	"github.com/depothq/depot/ports"
)

// RepositoryMoved queues nothing: Gitea sends no webhook for a rename or a
// transfer.
func (d *Dispatcher) RepositoryMoved(context.Context, ports.Stores, ports.RepoMoveEvent) error {
	return nil
}

// MirrorSynced queues what a push of the same ref changes would (push,
// create and delete events), by the mirror's owner, as Gitea's webhook
// notifier does for a mirror's sync.
func (d *Dispatcher) MirrorSynced(ctx context.Context, tx ports.Stores, e ports.MirrorSyncEvent) error {
	if e.Repo == nil || len(e.Changes) == 0 {
		return nil
	}
	return d.Pushed(ctx, tx, ports.PushEvent{RepoID: e.Repo.ID, Owner: e.Repo.Owner.Name, Repo: e.Repo.Name,
		PusherID: e.Repo.Owner.ID, PusherName: e.Repo.Owner.Name, Changes: e.Changes, When: d.clock.Now()})
}
