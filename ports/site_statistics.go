package ports

import (
	"context"
	"time"
)

// SiteUsage is what NodeInfo tells other servers about the site's use.
type SiteUsage struct {
	// Users counts individual accounts; ActiveHalfyear and ActiveMonth
	// those who signed in within six months and one month.
	Users, ActiveHalfyear, ActiveMonth int64
	// Issues counts issues and pull requests; Comments their comments.
	Issues, Comments int64
}

// SiteStatistics counts the site's use.
type SiteStatistics interface {
	// SiteUsage counts accounts (and those who signed in since
	// halfyear and since month), issues and comments.
	SiteUsage(ctx context.Context, halfyear, month time.Time) (SiteUsage, error)
}
