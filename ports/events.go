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

// Events receives what happened in repositories, for webhooks and feeds. An
// implementation must not block the caller for long: it queues or logs.
type Events interface {
	Pushed(ctx context.Context, e PushEvent) error
}
