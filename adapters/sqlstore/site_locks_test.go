package sqlstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestSiteLocks takes one named lock from two handles on one database (on
// Postgres, as two servers do) and from many goroutines of one: it is held
// by one at a time, a wait ends with its context, another name is free,
// and waiters of one server do not hold the connections its holder needs.
func TestSiteLocks(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			cfg := b.cfg(t)
			first := open(t, cfg)
			if err := first.Migrate(t.Context()); err != nil {
				t.Fatal(err)
			}
			second := first
			if b.name == "postgres" {
				second = open(t, cfg) // another server on the same database
			}
			la, lb := first.SiteLocks(), second.SiteLocks()

			unlock, err := la.Lock(t.Context(), "dirs")
			is.NoErr(err)
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			_, err = lb.Lock(ctx, "dirs") // held: the wait ends with its context
			cancel()
			is.True(err != nil)
			other, err := lb.Lock(t.Context(), "other") // another name is free
			is.NoErr(err)
			other()

			got := make(chan struct{})
			go func() {
				u, err := lb.Lock(t.Context(), "dirs")
				if err == nil {
					close(got)
					u()
				}
			}()
			select {
			case <-got:
				t.Fatal("the lock was taken twice")
			case <-time.After(100 * time.Millisecond):
			}
			unlock()
			select {
			case <-got:
			case <-time.After(10 * time.Second):
				t.Fatal("the released lock was not taken")
			}

			// Many waiters in one server, each holder querying while it holds.
			var holders, most atomic.Int32
			var wg sync.WaitGroup
			for range 30 {
				wg.Go(func() {
					u, err := la.Lock(t.Context(), "dirs")
					if err != nil {
						t.Error(err)
						return
					}
					defer u()
					n := holders.Add(1)
					defer holders.Add(-1)
					if n > most.Load() {
						most.Store(n)
					}
					if err := first.Ping(t.Context()); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			is.Equal(most.Load(), int32(1))
		})
	}
}
