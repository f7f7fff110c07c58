package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/repository"
)

// PushEvent is what one push changed: who pushed, to which repository, and
// the refs that moved. Consumers derive Gitea's push, create and delete
// events (branches and tags) from the changes.
type PushEvent struct {
	RepoID     int64
	Owner      string
	Repo       string
	PusherID   int64
	PusherName string
	// Changes are the ref updates git applied, in the order it reported them.
	Changes []repository.RefChange
	When    time.Time
}

// Events receives what happened in repositories, for webhooks and feeds.
// Each method is called inside the transaction of the write that records the
// change, with that transaction's stores, so the work it queues (webhook
// deliveries) commits if and only if the change does. It must not do network
// I/O.
type Events interface {
	Pushed(ctx context.Context, tx Stores, e PushEvent) error
}
