package ports

import (
	"context"
	"sync/atomic"
)

// The caches whose entries a change made on one server must drop on every
// server that shares the database. Each drop names one of them and an id.
const (
	// CacheToken is the access-token cache; the id is the token's.
	CacheToken = "token"
	// CacheUserTokens is every cached token of one user; the id is the user's.
	CacheUserTokens = "user_tokens"
	// CacheOAuth2Grant is the bearer-token cache of one OAuth2 grant.
	CacheOAuth2Grant = "oauth2_grant"
	// CacheOAuth2App is every cached grant of one OAuth2 application.
	CacheOAuth2App = "oauth2_app"
	// CacheBranchRules is a repository's compiled branch protection rules.
	CacheBranchRules = "branch_rules"
	// CacheTagRules is a repository's compiled tag protection rules.
	CacheTagRules = "tag_rules"
	// CacheUnreadThreads is a user's unread notification threads per
	// repository; the id is the user's.
	CacheUnreadThreads = "unread_threads"
)

// CacheDrop says that the entries of Cache for ID are stale: a change to
// what they were read from has committed.
type CacheDrop struct {
	Cache string
	ID    int64
}

// CacheDropBus carries cache drops between the servers that share one
// database (several `depot serve` behind a load balancer on one Postgres).
type CacheDropBus interface {
	// Shared reports whether other servers can share the database at all;
	// when false (the embedded SQLite database), nothing is carried.
	Shared() bool
	// Publish tells every server, this one too, of drops made here. It is
	// called after the change has committed.
	Publish(ctx context.Context, drops []CacheDrop) error
	// Listen calls drop for each drop any server publishes, and resync
	// whenever drops may have been missed (once listening starts, and again
	// after a lost connection is back): the caller then drops everything it
	// keeps. It returns when ctx ends.
	Listen(ctx context.Context, drop func(CacheDrop), resync func()) error
}

// SharedCache is a cache of rows that another server may change.
type SharedCache interface {
	// ShareDrops has the cache hand every drop it makes to publish, so that
	// the other servers drop the same entries.
	ShareDrops(publish func(CacheDrop))
	// ApplyDrop drops what d names when d names this cache (another
	// server's change), without publishing it again.
	ApplyDrop(d CacheDrop)
	// DropAll empties the cache.
	DropAll()
}

// DropSharing is what a SharedCache embeds to hand its drops on: it gives
// the cache ShareDrops, and Share, which the cache calls with each drop it
// makes itself. Until ShareDrops is called, Share does nothing.
type DropSharing struct {
	publish atomic.Pointer[func(CacheDrop)]
}

// ShareDrops has Share hand each drop to publish.
func (s *DropSharing) ShareDrops(publish func(CacheDrop)) { s.publish.Store(&publish) }

// Share hands d to the publisher, if one was given.
func (s *DropSharing) Share(d CacheDrop) {
	if p := s.publish.Load(); p != nil {
		(*p)(d)
	}
}
