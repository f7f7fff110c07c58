package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestCacheDropBus publishes drops through one handle on a Postgres
// database and receives them on a second (two servers on one database):
// each drop arrives once per listener, a listener reports a resync when it
// starts, a batch too big for one notification still arrives whole, and the
// listener ends as soon as its context does. On
// SQLite the bus is not shared and carries nothing.
func TestCacheDropBus(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		is := is.New(t)
		cfg := backends[1].cfg(t)
		a, b := open(t, cfg), open(t, cfg)
		is.True(a.CacheDropBus().Shared())

		ctx, cancel := context.WithCancel(t.Context())
		got := make(chan ports.CacheDrop, 4096)
		resyncs := make(chan struct{}, 8)
		done := make(chan error, 1)
		go func() {
			done <- b.CacheDropBus().Listen(ctx, func(d ports.CacheDrop) { got <- d },
				func() { resyncs <- struct{}{} })
		}()
		select {
		case <-resyncs: // listening from here on
		case <-time.After(10 * time.Second):
			t.Fatal("the listener did not start")
		}

		// The first drops are published until they arrive: pgdriver sends
		// LISTEN without waiting for the server to take it, and on a loaded
		// machine an early notification was seen to be missed (about one run
		// in three); the server's resync covers that window, and what this
		// test checks is the round trip and the batches below.
		first := []ports.CacheDrop{{Cache: ports.CacheToken, ID: 7}, {Cache: ports.CacheBranchRules, ID: 42}}
		is.Equal(receiveRepublished(t, got, func() { is.NoErr(a.CacheDropBus().Publish(t.Context(), first)) }), first)

		var many []ports.CacheDrop
		for i := range 2000 { // about 40 KB: several notifications
			many = append(many, ports.CacheDrop{Cache: ports.CacheUserTokens, ID: int64(i) * 1_000_000_007})
		}
		is.NoErr(a.CacheDropBus().Publish(t.Context(), many))
		is.Equal(receive(t, got, len(many)), many)

		// The listener ends with its context, not when its wait for the
		// next notification (15 s of silence) runs out: a stopping server
		// waited out that wait before.
		cancel()
		select {
		case err := <-done:
			is.NoErr(err)
		case <-time.After(5 * time.Second):
			t.Fatal("the listener did not end with its context")
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		is := is.New(t)
		d := open(t, backends[0].cfg(t))
		is.True(!d.CacheDropBus().Shared())
		is.NoErr(d.CacheDropBus().Publish(t.Context(), []ports.CacheDrop{{Cache: ports.CacheToken, ID: 1}}))
	})
}

// receiveRepublished publishes (with publish) until a batch of two drops
// arrives, then returns it.
func receiveRepublished(t *testing.T, got <-chan ports.CacheDrop, publish func()) []ports.CacheDrop {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		publish()
		select {
		case d := <-got:
			return append([]ports.CacheDrop{d}, receive(t, got, 1)...)
		case <-time.After(time.Second):
		case <-deadline:
			t.Fatal("no drop arrived")
		}
	}
}

// receive waits for n drops.
func receive(t *testing.T, got <-chan ports.CacheDrop, n int) []ports.CacheDrop {
	t.Helper()
	out := make([]ports.CacheDrop, 0, n)
	deadline := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case d := <-got:
			out = append(out, d)
		case <-deadline:
			t.Fatalf("received %d of %d drops: %s", len(out), n, fmt.Sprint(out))
		}
	}
	return out
}
