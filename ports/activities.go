package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/activity"
)

// ActivityQuery selects one feed's page. Exactly one of UserID, RepoID,
// OwnerID and TeamID names the feed.
type ActivityQuery struct {
	// UserID: what the user did, or what happened in the user's repositories.
	UserID int64
	// RepoID: what happened in the repository.
	RepoID int64
	// OwnerID: what happened in the organisation's repositories.
	OwnerID int64
	// TeamID: what happened in the team's repositories.
	TeamID int64
	// ActUserID keeps only what this user did (only-performed-by).
	ActUserID int64
	// From and To keep what happened in [From, To); zero means unbounded.
	From, To time.Time
	// PublicOnly keeps only activities of repositories that are public now.
	PublicOnly bool
	ListOptions
}

// ActivityStore persists activity records.
type ActivityStore interface {
	// Add inserts the records; run it in the transaction of the event.
	Add(ctx context.Context, list []*activity.Activity) error
	// List answers one page of a feed, the newest first, and the feed's size.
	List(ctx context.Context, q ActivityQuery) ([]*activity.Activity, int64, error)
	// Heatmap counts what actUserID did since since in 15-minute buckets,
	// the oldest first; PublicOnly keeps public repositories' activities.
	Heatmap(ctx context.Context, actUserID int64, since time.Time, publicOnly bool) ([]activity.HeatmapBucket, error)
	// DeleteBefore removes the records made before t (Gitea's
	// delete_old_actions) and returns how many went.
	DeleteBefore(ctx context.Context, t time.Time) (int64, error)
}
