package httpkit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestIdleMemoryReleasesOncePerBurst takes the ticks by hand: start-up is
// released once at the first quiet tick; nothing else is released before
// traffic, while requests keep coming, or while one is still in flight; one
// release follows a burst, and no other until the next burst.
func TestIdleMemoryReleasesOncePerBurst(t *testing.T) {
	is := is.New(t)
	var starts, releases atomic.Int32
	m := NewIdleMemory(IdleRelease{AfterStart: func() { starts.Add(1) }, AfterBurst: func() { releases.Add(1) }})
	st := idleState{busy: true, starting: true}
	tick := func() { m.tick(&st) }

	hold := make(chan struct{})
	h := m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-hold
		}
	}))
	get := func(path string) { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil)) }

	tick()
	is.Equal(starts.Load(), int32(1)) // start-up's release
	tick()
	is.Equal(releases.Load(), int32(0)) // no traffic yet

	get("/a")
	tick() // sees the burst
	get("/b")
	tick() // still busy
	is.Equal(releases.Load(), int32(0))
	tick() // a quiet period after traffic
	tick()
	is.Equal(releases.Load(), int32(1))
	tick()
	tick()
	is.Equal(releases.Load(), int32(1)) // once per burst

	slow := make(chan struct{})
	go func() { defer close(slow); get("/slow") }()
	for m.started.Load() == m.finished.Load() {
		time.Sleep(time.Millisecond)
	}
	tick() // sees the slow request start
	tick() // none new, but one in flight
	is.Equal(releases.Load(), int32(1))
	close(hold)
	<-slow
	tick()
	tick()
	is.Equal(releases.Load(), int32(2))
	is.Equal(starts.Load(), int32(1)) // start-up's only
}

// TestIdleMemoryStartReleaseWaitsForQuiet: requests during start-up put
// start-up's release off until they stop, and it comes once.
func TestIdleMemoryStartReleaseWaitsForQuiet(t *testing.T) {
	is := is.New(t)
	var starts, releases atomic.Int32
	m := NewIdleMemory(IdleRelease{AfterStart: func() { starts.Add(1) }, AfterBurst: func() { releases.Add(1) }})
	st := idleState{busy: true, starting: true}
	h := m.Wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/a", nil))
	m.tick(&st) // traffic since start
	is.Equal(starts.Load(), int32(0))
	m.tick(&st) // quiet
	m.tick(&st)
	is.Equal(starts.Load(), int32(1))
	is.Equal(releases.Load(), int32(0))
}

// TestIdleMemoryRunStops: Run's loop ends with its context.
func TestIdleMemoryRunStops(t *testing.T) {
	m := NewIdleMemory(IdleRelease{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); m.run(ctx, make(chan time.Time)) }()
	cancel()
	<-done
}
