package ports

import (
	"context"
	"time"
)

// RemoteFollower is a remote actor following an account.
type RemoteFollower struct {
	UserID   int64
	ActorIRI string
	Created  time.Time
}

// RemoteLike is a remote actor's Like of an object an account's inbox
// received.
type RemoteLike struct {
	UserID    int64
	ActorIRI  string
	ObjectIRI string
	Created   time.Time
}

// ActivityPubInboxStore keeps what remote actors told accounts' inboxes.
// Adding what exists and removing what does not are no-ops, as remote
// servers retry deliveries.
type ActivityPubInboxStore interface {
	AddFollower(ctx context.Context, f RemoteFollower) error
	RemoveFollower(ctx context.Context, userID int64, actorIRI string) error
	// Followers lists one page of the account's remote followers, oldest
	// first, and their total.
	Followers(ctx context.Context, userID int64, opts ListOptions) ([]RemoteFollower, int64, error)
	AddLike(ctx context.Context, l RemoteLike) error
	RemoveLike(ctx context.Context, userID int64, actorIRI, objectIRI string) error
	// Likes lists one page of the account's remote likes, oldest first, and
	// their total.
	Likes(ctx context.Context, userID int64, opts ListOptions) ([]RemoteLike, int64, error)
}
