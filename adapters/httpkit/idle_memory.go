package httpkit

import (
	"context"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// IdleMemoryEvery is how often IdleMemory looks at the traffic: the memory
// goes back between one and two periods after the last request ends.
const IdleMemoryEvery = 5 * time.Second

// IdleMemory hands the heap a burst of requests freed back to the system
// once the server falls idle. The runtime's scavenger returns it only slowly
// and keeps about twice the live heap mapped (the collector's goal), so a
// server idle after a load run stayed tens of megabytes above its idle size.
// A request costs two atomic additions; an idle server, one release per burst.
type IdleMemory struct {
	started, finished atomic.Uint64
	// release returns freed memory (debug.FreeOSMemory).
	release func()
}

// NewIdleMemory returns an IdleMemory that releases with debug.FreeOSMemory.
func NewIdleMemory() *IdleMemory { return &IdleMemory{release: debug.FreeOSMemory} }

// Wrap counts h's requests.
func (m *IdleMemory) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.started.Add(1)
		defer m.finished.Add(1)
		h.ServeHTTP(w, r)
	})
}

// Run releases memory every period of IdleMemoryEvery that follows traffic
// and has none, until ctx ends.
func (m *IdleMemory) Run(ctx context.Context) {
	t := time.NewTicker(IdleMemoryEvery)
	defer t.Stop()
	m.run(ctx, t.C)
}

// run is Run on the given ticks.
func (m *IdleMemory) run(ctx context.Context, ticks <-chan time.Time) {
	var st idleState
	st.seen = m.started.Load()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			m.tick(&st)
		}
	}
}

// idleState is what the ticks remember: the requests started at the last
// one, and whether traffic came since the last release.
type idleState struct {
	seen uint64
	busy bool
}

// tick is one look at the traffic: requests started since the previous
// tick mark the server busy; the first tick after that sees none started
// and none in flight releases, once.
func (m *IdleMemory) tick(st *idleState) {
	started := m.started.Load()
	if started != st.seen {
		st.seen, st.busy = started, true
		return
	}
	if st.busy && m.finished.Load() == started {
		m.release()
		st.busy = false
	}
}
