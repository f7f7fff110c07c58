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

// IdleMemory hands the memory start-up and each burst of requests used back
// to the system once the server falls idle. The runtime's scavenger returns
// the heap only slowly and keeps about twice the live heap mapped (the
// collector's goal), so a server idle after a load run stayed tens of
// megabytes above its idle size. A request costs two atomic additions; an
// idle server, one release after start-up and one per burst.
type IdleMemory struct {
	started, finished atomic.Uint64
	release           IdleRelease
}

// IdleRelease is what IdleMemory calls: AfterStart at the first quiet tick
// after start-up, AfterBurst at the first quiet tick after each burst.
type IdleRelease struct {
	AfterStart, AfterBurst func()
}

// NewIdleMemory returns an IdleMemory that calls release; where a function
// of it is nil, debug.FreeOSMemory (the freed heap only).
func NewIdleMemory(release IdleRelease) *IdleMemory {
	if release.AfterStart == nil {
		release.AfterStart = debug.FreeOSMemory
	}
	if release.AfterBurst == nil {
		release.AfterBurst = debug.FreeOSMemory
	}
	return &IdleMemory{release: release}
}

// Wrap counts h's requests.
func (m *IdleMemory) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.started.Add(1)
		defer m.finished.Add(1)
		h.ServeHTTP(w, r)
	})
}

// Run releases memory in the first period of IdleMemoryEvery with no request
// after start-up, and in every such period that follows traffic, until ctx
// ends.
func (m *IdleMemory) Run(ctx context.Context) {
	t := time.NewTicker(IdleMemoryEvery)
	defer t.Stop()
	m.run(ctx, t.C)
}

// run is Run on the given ticks.
func (m *IdleMemory) run(ctx context.Context, ticks <-chan time.Time) {
	// Start-up counts as a burst of its own.
	st := idleState{seen: m.started.Load(), busy: true, starting: true}
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
// one, whether traffic came since the last release, and whether that
// release is the first since start-up.
type idleState struct {
	seen           uint64
	busy, starting bool
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
		if st.starting {
			m.release.AfterStart()
		} else {
			m.release.AfterBurst()
		}
		st.busy, st.starting = false, false
	}
}
