package notifications

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestUnreadCacheDrops checks that the cache answers from memory until a
// drop (its own, shared with the other servers, or another server's), and
// that a load that raced a drop is not kept.
func TestUnreadCacheDrops(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	c := NewUnreadCache()
	var shared []ports.CacheDrop
	c.ShareDrops(func(d ports.CacheDrop) { shared = append(shared, d) })
	loads := 0
	load := func(_ context.Context, userID int64) ([]ports.RepoUnread, error) {
		loads++
		return []ports.RepoUnread{{RepoID: 1, N: int64(loads)}}, nil
	}
	got, err := c.get(ctx, 7, load)
	is.NoErr(err)
	is.Equal(got[0].N, int64(1))
	got, _ = c.get(ctx, 7, load)
	is.Equal(got[0].N, int64(1)) // from memory
	is.Equal(loads, 1)

	c.drop(7, 8)
	is.Equal(shared, []ports.CacheDrop{{Cache: ports.CacheUnreadThreads, ID: 7}, {Cache: ports.CacheUnreadThreads, ID: 8}})
	got, _ = c.get(ctx, 7, load)
	is.Equal(got[0].N, int64(2))

	// Another server's drop, and one of another cache.
	c.ApplyDrop(ports.CacheDrop{Cache: ports.CacheTagRules, ID: 7})
	got, _ = c.get(ctx, 7, load)
	is.Equal(got[0].N, int64(2))
	c.ApplyDrop(ports.CacheDrop{Cache: ports.CacheUnreadThreads, ID: 7})
	got, _ = c.get(ctx, 7, load)
	is.Equal(got[0].N, int64(3))

	// A write commits while a load runs: its result answers that request
	// but is not kept.
	c.DropAll()
	racing := func(ctx context.Context, userID int64) ([]ports.RepoUnread, error) {
		c.drop(userID)
		return load(ctx, userID)
	}
	got, _ = c.get(ctx, 7, racing)
	is.Equal(got[0].N, int64(4))
	got, _ = c.get(ctx, 7, load)
	is.Equal(got[0].N, int64(5))
}
