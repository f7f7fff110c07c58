package oauth2

import (
	"sync"
	"time"

	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// bearerTTL bounds how long a grant's lookup is reused: a revocation made
// by this process drops it at once, and on the servers that share a
// Postgres database as soon as its drop reaches them (ports.CacheDropBus);
// one made by another process that does not publish drops (the admin CLI)
// is seen within this time, as with access tokens' cache.
const bearerTTL = 10 * time.Second

// bearerCache remembers, per grant, the user and scopes its access tokens
// carry, so a bearer request costs a signature check and no query.
type bearerCache struct {
	ports.DropSharing
	mu      sync.Mutex
	entries map[int64]bearerEntry
	// stats counts the lookups, for the metrics page.
	stats *ports.CacheStats
}

type bearerEntry struct {
	appID   int64
	user    *user.User
	scopes  token.Scopes
	expires time.Time
}

func (c *bearerCache) get(grantID int64, now time.Time) (bearerEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[grantID]
	if !ok || !now.Before(e.expires) {
		delete(c.entries, grantID)
		c.stats.SetEntries(len(c.entries))
		c.stats.Miss()
		return bearerEntry{}, false
	}
	c.stats.Hit()
	return e, true
}

// maxBearerEntries caps the cache; past it, it starts over.
const maxBearerEntries = 10000

func (c *bearerCache) put(grantID int64, e bearerEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxBearerEntries {
		c.stats.Evicted(len(c.entries))
		c.entries = map[int64]bearerEntry{}
	}
	c.entries[grantID] = e
	c.stats.SetEntries(len(c.entries))
}

// forgetGrant drops a revoked grant, here and on the servers that share
// the database.
func (c *bearerCache) forgetGrant(grantID int64) {
	c.dropGrant(grantID)
	c.Share(ports.CacheDrop{Cache: ports.CacheOAuth2Grant, ID: grantID})
}

// forgetApp drops every grant of a deleted application, here and on the
// servers that share the database.
func (c *bearerCache) forgetApp(appID int64) {
	c.dropApp(appID)
	c.Share(ports.CacheDrop{Cache: ports.CacheOAuth2App, ID: appID})
}

// ApplyDrop drops what another server's drop names.
func (c *bearerCache) ApplyDrop(d ports.CacheDrop) {
	switch d.Cache {
	case ports.CacheOAuth2Grant:
		c.dropGrant(d.ID)
	case ports.CacheOAuth2App:
		c.dropApp(d.ID)
	}
}

// DropAll empties the cache.
func (c *bearerCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = nil
	c.stats.SetEntries(0)
}

func (c *bearerCache) dropGrant(grantID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, grantID)
	c.stats.SetEntries(len(c.entries))
}

func (c *bearerCache) dropApp(appID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range c.entries {
		if e.appID == appID {
			delete(c.entries, id)
		}
	}
}
