package notifications

import (
	"context"
	"sync"

	"github.com/depothq/depot/ports"
)

// unreadCacheSize bounds the users whose counts are kept; past it the
// cache starts over (an entry is a few repositories' counts, cheap to
// read again from the index).
const unreadCacheSize = 16384

// UnreadCache keeps each user's unread notification threads per
// repository, keyed by user id, so /notifications/new answers without
// counting the index: only the check of which of those repositories the
// caller still sees runs per request (repository access changes without a
// write to the threads, so it is never cached). Every write to a user's
// threads (a fan-out, a thread marked, all marked) drops the user's entry
// once committed, here and, through the cache drop bus, on every server
// sharing the database. A load that raced a drop is not kept: every drop
// advances epoch, and a load keeps its result only if none happened while
// it ran. Threads that go with a deleted repository need no drop: the
// visibility check no longer finds the repository.
type UnreadCache struct {
	ports.DropSharing
	mu     sync.Mutex
	epoch  uint64
	counts map[int64][]ports.RepoUnread
}

// NewUnreadCache returns an empty cache.
func NewUnreadCache() *UnreadCache { return &UnreadCache{} }

// get returns userID's counts, loading them when absent.
func (c *UnreadCache) get(ctx context.Context, userID int64,
	load func(ctx context.Context, userID int64) ([]ports.RepoUnread, error)) ([]ports.RepoUnread, error) {
	c.mu.Lock()
	counts, ok := c.counts[userID]
	epoch := c.epoch
	c.mu.Unlock()
	if ok {
		return counts, nil
	}
	counts, err := load(ctx, userID)
	if err != nil {
		return nil, err
	}
	if counts == nil {
		counts = []ports.RepoUnread{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch == epoch {
		if c.counts == nil || len(c.counts) >= unreadCacheSize {
			c.counts = make(map[int64][]ports.RepoUnread)
		}
		c.counts[userID] = counts
	}
	return counts, nil
}

// drop forgets the users' counts after a write to their threads has
// committed, here and on the servers that share the database.
func (c *UnreadCache) drop(userIDs ...int64) {
	c.mu.Lock()
	c.epoch++
	for _, id := range userIDs {
		delete(c.counts, id)
	}
	c.mu.Unlock()
	for _, id := range userIDs {
		c.Share(ports.CacheDrop{Cache: ports.CacheUnreadThreads, ID: id})
	}
}

// ApplyDrop drops what another server's drop names.
func (c *UnreadCache) ApplyDrop(d ports.CacheDrop) {
	if d.Cache != ports.CacheUnreadThreads {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.counts, d.ID)
}

// DropAll forgets every user's counts.
func (c *UnreadCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.counts = nil
}
