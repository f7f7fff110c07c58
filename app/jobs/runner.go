// Package jobs runs the durable job queue: workers claim due jobs from the
// job store, run the handler registered for their kind, and complete, retry
// (with exponential backoff) or give up on them.
package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/depothq/depot/ports"
)

// Handler runs one job. A nil error completes it; an error wrapped with
// Permanent fails it at once; any other error retries it later, until the
// kind's MaxAttempts is reached.
type Handler func(ctx context.Context, j *ports.Job) error

// KindOptions tune how one kind of job runs. Zero values take defaults.
type KindOptions struct {
	// MaxAttempts is how many runs a job gets before it fails.
	MaxAttempts int
	// Concurrency bounds how many jobs of the kind run at once in this process.
	Concurrency int
	// Lease is how long a claimed job is this process's before another may
	// take it over; a handler must finish well within it.
	Lease time.Duration
	// Backoff is the delay before the retry that follows attempt n (1-based).
	Backoff func(attempt int) time.Duration
}

type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent marks err as one retrying cannot fix.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err: err}
}

// IsPermanent reports whether err was marked with Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// Runner runs the registered handlers over the job store.
type Runner struct {
	store ports.JobStore
	clock ports.Clock
	log   *slog.Logger
}

// NewRunner builds a runner over the (non-transactional) stores' job queue.
func NewRunner(stores ports.Stores, clock ports.Clock, log *slog.Logger) *Runner {
	return &Runner{store: stores.Jobs, clock: clock, log: log}
}

// Handle registers the handler of a kind. Call it before Run.
func (r *Runner) Handle(kind string, opts KindOptions, h Handler) {
	// Filled in by the jobs work.
}

// Notify tells the workers that jobs were enqueued (call it after the
// enqueuing transaction commits) so they need not wait for the next poll.
func (r *Runner) Notify() {}

// Run works the queue until ctx ends, then waits for running handlers.
func (r *Runner) Run(ctx context.Context) { <-ctx.Done() }
