// Package cluster keeps the servers that share one database acting as one
// site: what one of them changes, the others' caches forget.
package cluster

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/depothq/depot/ports"
)

// dropQueueSize bounds the drops waiting to be published. A burst past it
// (a mass deletion) is published as one "drop everything" instead.
const dropQueueSize = 4096

// publishBatch is how many queued drops go out in one publication.
const publishBatch = 256

// CacheDrops hands the drops each shared cache makes to the bus, and the
// drops other servers publish to the caches. Each cache drops its own
// entries at once; the other servers drop theirs when the drop reaches
// them, and everything when the bus says drops may have been missed. On a
// database no other server can share (SQLite), it does nothing.
type CacheDrops struct {
	bus    ports.CacheDropBus
	caches []ports.SharedCache
	log    *slog.Logger
	queue  chan ports.CacheDrop
	// overflowed records that a drop did not fit in the queue: the next
	// publication asks every server to drop everything.
	overflowed atomic.Bool
}

// everything is the drop that stands for all entries of all caches.
var everything = ports.CacheDrop{Cache: "*"}

// NewCacheDrops connects caches to bus.
func NewCacheDrops(bus ports.CacheDropBus, log *slog.Logger, caches ...ports.SharedCache) *CacheDrops {
	d := &CacheDrops{bus: bus, caches: caches, log: log, queue: make(chan ports.CacheDrop, dropQueueSize)}
	if bus.Shared() {
		for _, c := range caches {
			c.ShareDrops(d.enqueue)
		}
	}
	return d
}

// enqueue queues d for publication without waiting: a cache drops under
// its lock, on a request's path.
func (d *CacheDrops) enqueue(drop ports.CacheDrop) {
	select {
	case d.queue <- drop:
	default:
		d.overflowed.Store(true)
	}
}

// Run publishes this server's drops and applies every server's until ctx
// ends.
func (d *CacheDrops) Run(ctx context.Context) {
	if !d.bus.Shared() {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.publish(ctx)
	}()
	for ctx.Err() == nil {
		err := d.bus.Listen(ctx, d.apply, d.dropAll)
		if err != nil && ctx.Err() == nil {
			d.log.Warn("cache drops: listening failed; retrying", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
	<-done
}

// apply drops what another server's drop names.
func (d *CacheDrops) apply(drop ports.CacheDrop) {
	if drop == everything {
		d.dropAll()
		return
	}
	for _, c := range d.caches {
		c.ApplyDrop(drop)
	}
}

// dropAll empties every cache.
func (d *CacheDrops) dropAll() {
	for _, c := range d.caches {
		c.DropAll()
	}
}

// publish sends the queued drops in batches until ctx ends. A batch that
// cannot be sent is retried once the bus answers again, as "drop
// everything": the other servers may have missed any of it.
func (d *CacheDrops) publish(ctx context.Context) {
	batch := make([]ports.CacheDrop, 0, publishBatch)
	for {
		select {
		case <-ctx.Done():
			return
		case drop := <-d.queue:
			batch = append(batch[:0], drop)
		}
	more:
		for len(batch) < publishBatch {
			select {
			case drop := <-d.queue:
				batch = append(batch, drop)
			default:
				break more
			}
		}
		if d.overflowed.Swap(false) {
			batch = append(batch[:0], everything)
		}
		for {
			err := d.bus.Publish(ctx, batch)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return
			}
			d.log.Warn("cache drops: publishing failed; retrying", "err", err)
			batch = append(batch[:0], everything)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}
