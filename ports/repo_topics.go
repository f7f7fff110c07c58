package ports

import (
	"context"
	"time"
)

// TopicCount is a topic with how many repositories use it.
type TopicCount struct {
	ID               int64
	Name             string
	RepoCount        int
	Created, Updated time.Time
}

// TopicStore persists repository topics and their usage counts.
type TopicStore interface {
	// Replace sets the repository's topics (normalised, sorted), keeping
	// every topic's repository count right.
	Replace(ctx context.Context, repoID int64, topics []string) error
	// Search lists topics whose name contains keyword, most used first, one page, and the total.
	Search(ctx context.Context, keyword string, opts ListOptions) ([]TopicCount, int64, error)
}
