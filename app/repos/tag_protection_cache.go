package repos

import (
	"context"
	"sync"

	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/ports"
)

// tagRuleCacheSize bounds the repositories whose rules are kept; past it
// the cache starts over (rules are small, and cheap to load again).
const tagRuleCacheSize = 4096

// tagRuleCache keeps each repository's compiled tag protection rules, keyed
// by repository id, so a push checks its tags without a query. A change to
// a repository's rules drops its entry once committed. A load that raced
// such a change is not kept: every drop advances epoch, and a load keeps
// its result only if no drop happened while it ran, so a stale read is
// never cached. The zero value is ready to use.
type tagRuleCache struct {
	ports.DropSharing
	mu    sync.Mutex
	epoch uint64
	rules map[int64]protection.TagRules
	// stats counts the lookups, for the metrics page (nil: counted nowhere).
	stats *ports.CacheStats
}

// get returns repoID's rules, loading and compiling them when absent.
func (c *tagRuleCache) get(ctx context.Context, repoID int64,
	load func(ctx context.Context, repoID int64) ([]*protection.TagRule, error)) (protection.TagRules, error) {
	c.mu.Lock()
	rs, ok := c.rules[repoID]
	epoch := c.epoch
	c.mu.Unlock()
	c.stats.Lookup(ok)
	if ok {
		return rs, nil
	}
	list, err := load(ctx, repoID)
	if err != nil {
		return protection.TagRules{}, err
	}
	if rs, err = protection.CompileTagRules(list); err != nil {
		return protection.TagRules{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch == epoch {
		if c.rules == nil || len(c.rules) >= tagRuleCacheSize {
			c.stats.Evicted(len(c.rules))
			c.rules = make(map[int64]protection.TagRules)
		}
		c.rules[repoID] = rs
		c.stats.SetEntries(len(c.rules))
	}
	return rs, nil
}

// drop forgets repoID's rules, after a change to them has committed, here
// and on the servers that share the database.
func (c *tagRuleCache) drop(repoID int64) {
	c.dropLocal(repoID)
	c.Share(ports.CacheDrop{Cache: ports.CacheTagRules, ID: repoID})
}

func (c *tagRuleCache) dropLocal(repoID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.rules, repoID)
	c.stats.SetEntries(len(c.rules))
}

// ApplyDrop drops what another server's drop names.
func (c *tagRuleCache) ApplyDrop(d ports.CacheDrop) {
	if d.Cache == ports.CacheTagRules {
		c.dropLocal(d.ID)
	}
}

// DropAll forgets every repository's rules.
func (c *tagRuleCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.rules = nil
	c.stats.SetEntries(0)
}
