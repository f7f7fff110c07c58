package site

// Federation is Gitea's [federation] table: with it on, Depot describes
// itself to other servers at /api/v1/nodeinfo (NodeInfo 2.1) and
// /.well-known/nodeinfo, and serves its accounts as ActivityPub actors
// under /api/v1/activitypub.
type Federation struct {
	// Enabled serves the NodeInfo and ActivityPub routes; off, they answer 404.
	Enabled bool
	// ShareUserStatistics adds the site's user, issue and comment counts.
	ShareUserStatistics bool
}
