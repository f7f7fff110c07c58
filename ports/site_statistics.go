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

// SiteObjects counts the site's objects as Gitea's metrics page does.
type SiteObjects struct {
	Users, Organizations, Teams                    int64
	Repositories, Mirrors                          int64
	Issues, IssuesOpen, IssuesClosed, PullRequests int64
	Comments, Labels, Milestones, Releases         int64
	Stars, Watches, Follows                        int64
	Webhooks, HookTasks, PublicKeys, OAuthApps     int64
	Attachments, Actions                           int64
}

// SiteObjectCounter counts the site's objects, for the metrics page, which
// keeps the counts for a while: a scrape never counts.
type SiteObjectCounter interface {
	SiteObjects(ctx context.Context) (SiteObjects, error)
}

// IsZeroCounts reports whether nothing was counted (no counts read yet).
func (o SiteObjects) IsZeroCounts() bool { return o == SiteObjects{} }
