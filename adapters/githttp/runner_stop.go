package githttp

import "context"

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
