package githttp

import (
	"context"
	"sync"
)

// Stop kills every git the runner started under a context from Bound and
// makes every later one die at once: for the end of the shutdown grace,
// when what is still running (a push whose client stalled) must not outlive
// the server.
func (r *Runner) Stop() { r.stopAll() }

// Bound returns ctx, also cancelled when the runner stops. A push runs
// under a context that ignores its client going away (so that it ends in a
// consistent state); this is what still ends it at shutdown. Call the
// returned function once the command has finished.
func (r *Runner) Bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	release := context.AfterFunc(r.stopped, cancel)
	return ctx, func() {
		release()
		cancel()
	}
}

// detachedRuns counts the git runs answering on a connection the HTTP
// server no longer tracks (hand_off.go): its Shutdown does not wait for
// them, WaitDetached does.
type detachedRuns struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0; nil while it is 0
}

// Detached counts a run that answers on a connection taken over from the
// HTTP server, from before the connection is taken over; call the returned
// function when the run has ended.
func (r *Runner) Detached() func() {
	d := &r.detached
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.n == 0 {
		d.idle = make(chan struct{})
	}
	d.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			if d.n--; d.n == 0 {
				close(d.idle)
				d.idle = nil
			}
		})
	}
}

// WaitDetached waits until no detached run is left, or ctx ends: after the
// HTTP server's Shutdown, for the answers it no longer tracks, before Stop
// ends what still runs.
func (r *Runner) WaitDetached(ctx context.Context) error {
	r.detached.mu.Lock()
	idle := r.detached.idle
	r.detached.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
