package cluster

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// memoryBus is a CacheDropBus in memory: what one server publishes, every
// listener receives.
type memoryBus struct {
	mu        sync.Mutex
	listeners []func(ports.CacheDrop)
	published [][]ports.CacheDrop
	fail      bool
}

func (b *memoryBus) Shared() bool { return true }

func (b *memoryBus) Publish(_ context.Context, drops []ports.CacheDrop) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail {
		b.fail = false
		return io.ErrUnexpectedEOF
	}
	b.published = append(b.published, append([]ports.CacheDrop(nil), drops...))
	for _, l := range b.listeners {
		for _, d := range drops {
			l(d)
		}
	}
	return nil
}

func (b *memoryBus) Listen(ctx context.Context, drop func(ports.CacheDrop), resync func()) error {
	b.mu.Lock()
	b.listeners = append(b.listeners, drop)
	b.mu.Unlock()
	resync()
	<-ctx.Done()
	return nil
}

// recordingCache is a SharedCache that records what it was told.
type recordingCache struct {
	ports.DropSharing
	mu      sync.Mutex
	applied []ports.CacheDrop
	resets  int
}

func (c *recordingCache) ApplyDrop(d ports.CacheDrop) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.applied = append(c.applied, d)
}

func (c *recordingCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resets++
}

func (c *recordingCache) state() ([]ports.CacheDrop, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ports.CacheDrop(nil), c.applied...), c.resets
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(time.Millisecond)
	}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// TestCacheDropsReachOtherServers runs two servers' hubs on one bus: a drop
// one server's cache makes reaches the other's cache; each cache is emptied
// when its listener starts (drops before it are unknown); a failed
// publication is sent again as "drop everything".
func TestCacheDropsReachOtherServers(t *testing.T) {
	is := is.New(t)
	bus := &memoryBus{}
	a, b := &recordingCache{}, &recordingCache{}
	hubA, hubB := NewCacheDrops(bus, quiet, a), NewCacheDrops(bus, quiet, b)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for _, h := range []*CacheDrops{hubA, hubB} {
		wg.Go(func() { h.Run(ctx) })
	}
	eventually(t, func() bool { _, ra := a.state(); _, rb := b.state(); return ra == 1 && rb == 1 })

	a.Share(ports.CacheDrop{Cache: ports.CacheToken, ID: 5})
	eventually(t, func() bool { got, _ := b.state(); return len(got) == 1 })
	got, _ := b.state()
	is.Equal(got[0], ports.CacheDrop{Cache: ports.CacheToken, ID: 5})

	bus.mu.Lock()
	bus.fail = true
	bus.mu.Unlock()
	a.Share(ports.CacheDrop{Cache: ports.CacheBranchRules, ID: 9})
	eventually(t, func() bool { _, resets := b.state(); return resets == 2 }) // the retry drops everything

	cancel()
	wg.Wait()
}

// TestCacheDropsOverflow drops more than the queue holds before the
// publisher runs: the burst goes out as one "drop everything".
func TestCacheDropsOverflow(t *testing.T) {
	is := is.New(t)
	bus := &memoryBus{}
	a := &recordingCache{}
	hub := NewCacheDrops(bus, quiet, a)
	for i := range dropQueueSize + 10 {
		a.Share(ports.CacheDrop{Cache: ports.CacheToken, ID: int64(i)})
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); hub.Run(ctx) }()
	eventually(t, func() bool {
		bus.mu.Lock()
		defer bus.mu.Unlock()
		for _, p := range bus.published {
			if len(p) == 1 && p[0] == everything {
				return true
			}
		}
		return false
	})
	cancel()
	<-done
	is.True(len(hub.queue) < dropQueueSize)
}

// TestCacheDropsNotShared: on a database only one server uses, caches are
// not connected and Run returns at once.
func TestCacheDropsNotShared(t *testing.T) {
	c := &recordingCache{}
	hub := NewCacheDrops(unsharedBus{}, quiet, c)
	c.Share(ports.CacheDrop{Cache: ports.CacheToken, ID: 1}) // no publisher: nothing happens
	hub.Run(t.Context())
	is.New(t).Equal(len(hub.queue), 0)
}

type unsharedBus struct{}

func (unsharedBus) Shared() bool                                     { return false }
func (unsharedBus) Publish(context.Context, []ports.CacheDrop) error { return nil }
func (unsharedBus) Listen(ctx context.Context, _ func(ports.CacheDrop), _ func()) error {
	<-ctx.Done()
	return nil
}
