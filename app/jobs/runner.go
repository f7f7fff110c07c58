// Package jobs runs the durable job queue: workers claim due jobs from the
// job store, run the handler registered for their kind, and complete, retry
// (with exponential backoff) or give up on them.
//
// Several processes may run a Runner over one database: a claim leases a job
// to one of them, and a process that dies loses its jobs to the others when
// their leases run out. A job may therefore run more than once (its worker
// died after the work but before recording it), never twice at the same
// time: handlers should be idempotent where the effect allows.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/depothq/depot/ports"
)

// Handler runs one job. A nil error completes it; an error wrapped with
// Permanent fails it at once; any other error (a panic included) retries it
// later, until the kind's MaxAttempts is reached. ctx ends a margin before
// the job's lease does, and on shutdown after the runner's grace period:
// a handler must return soon after.
type Handler func(ctx context.Context, j *ports.Job) error

// settleTimeout bounds the store write that records a job's outcome.
const settleTimeout = 30 * time.Second

// Runner runs the registered handlers over the job store.
type Runner struct {
	store ports.JobStore
	clock ports.Clock
	log   *slog.Logger
	opts  RunnerOptions
	// wake is Notify's signal; one pending wake-up is enough.
	wake chan struct{}
	// seq numbers the claims, so each lease has its own owner name.
	seq atomic.Uint64

	mu    sync.Mutex
	kinds map[string]*kindRunner
	order []*kindRunner
}

// kindRunner is one registered kind and its in-flight count.
type kindRunner struct {
	name    string
	opts    KindOptions
	handle  Handler
	running atomic.Int32
}

// NewRunner builds a runner over the (non-transactional) stores' job queue
// with the default RunnerOptions.
func NewRunner(stores ports.Stores, clock ports.Clock, log *slog.Logger) *Runner {
	return NewRunnerWith(stores.Jobs, clock, log, RunnerOptions{})
}

// NewRunnerWith builds a runner over store with explicit options (tests use
// short polls and grace periods).
func NewRunnerWith(store ports.JobStore, clock ports.Clock, log *slog.Logger, opts RunnerOptions) *Runner {
	return &Runner{
		store: store, clock: clock, log: log, opts: opts.withDefaults(),
		wake: make(chan struct{}, 1), kinds: map[string]*kindRunner{},
	}
}

// Handle registers the handler of a kind; services call it from their
// constructors, before Run (a kind registered while Run runs is picked up by
// its next round). Registering a kind twice is a programming error and
// panics, as http.ServeMux does.
func (r *Runner) Handle(kind string, opts KindOptions, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.kinds[kind]; dup {
		panic("jobs: handler for kind " + strconv.Quote(kind) + " registered twice")
	}
	k := &kindRunner{name: kind, opts: opts.withDefaults(), handle: h}
	r.kinds[kind] = k
	r.order = append(r.order, k)
	r.Notify()
}

// Notify tells the workers that jobs were enqueued (call it after the
// enqueuing transaction commits) so they need not wait for the next poll.
// It never blocks; a Notify before Run is remembered.
func (r *Runner) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run works the queue until ctx ends, then stops claiming and waits for the
// running handlers: they get the runner's grace period to finish, then their
// ctx is cancelled and the jobs they give up on are released: due again at
// once, the interrupted attempt not counted.
// Call Run once per Runner.
func (r *Runner) Run(ctx context.Context) {
	// Handlers and outcome writes outlive ctx by the grace period, so a
	// shutdown does not cut a delivery off halfway when it could finish.
	base, cancelHandlers := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelHandlers()
	var wg sync.WaitGroup
	ticker := time.NewTicker(r.opts.Poll)
	defer ticker.Stop()
	for {
		r.claimRound(ctx, base, &wg)
		select {
		case <-ctx.Done():
			r.drain(&wg, cancelHandlers)
			return
		case <-r.wake:
		case <-ticker.C:
		}
	}
}

// drain waits for the running handlers, cancelling them after the grace.
func (r *Runner) drain(wg *sync.WaitGroup, cancel context.CancelFunc) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	grace := time.NewTimer(r.opts.Grace)
	defer grace.Stop()
	select {
	case <-done:
	case <-grace.C:
		r.log.Warn("jobs: cancelling running jobs after the shutdown grace period", "grace", r.opts.Grace)
		cancel()
		<-done
	}
}

func (r *Runner) registered() []*kindRunner {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*kindRunner(nil), r.order...)
}

// claimRound claims, per kind, as many due jobs as the kind has free slots,
// and starts them.
func (r *Runner) claimRound(ctx, base context.Context, wg *sync.WaitGroup) {
	for _, k := range r.registered() {
		if ctx.Err() != nil {
			return
		}
		free := k.opts.Concurrency - int(k.running.Load())
		if free <= 0 {
			continue
		}
		owner := r.opts.Owner + "/" + strconv.FormatUint(r.seq.Add(1), 10)
		// The claim is not cancelled with ctx: a claim that committed but
		// whose answer was dropped would strand its jobs until the lease ends.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
		js, err := r.store.Claim(cctx, owner, []string{k.name}, r.clock.Now(), k.opts.Lease, free)
		cancel()
		if err != nil {
			r.log.Error("jobs: claiming", "kind", k.name, "err", err)
			continue
		}
		for _, j := range js {
			k.running.Add(1)
			wg.Go(func() {
				defer func() {
					k.running.Add(-1)
					// A free slot, and maybe the next job of j's queue.
					r.Notify()
				}()
				r.work(base, k, owner, j)
			})
		}
	}
}

// work runs one claimed job and records its outcome.
func (r *Runner) work(base context.Context, k *kindRunner, owner string, j *ports.Job) {
	log := r.log.With("kind", k.name, "job", j.ID, "attempt", j.Attempts)
	if j.Attempts > k.opts.MaxAttempts {
		// The last allowed run never reported back: its worker died (a
		// crash, a kill, maybe this very job) and the lease ran out. Running
		// it again could take this process down too.
		r.fail(base, log, owner, j, fmt.Sprintf("gave up after %d attempts; the last one's worker stopped without reporting", j.Attempts-1))
		return
	}
	hctx, cancel := context.WithTimeout(base, k.opts.handlerTimeout())
	err := call(hctx, log, k.handle, j)
	cancel()

	switch {
	case err == nil:
		r.settle(base, log, "completing", func(ctx context.Context) error {
			return r.store.Complete(ctx, j.ID, owner)
		})
	case base.Err() != nil:
		// Shutdown cut the handler off: not the job's fault, so it is given
		// back uncounted, due at once for the next process that runs.
		log.Warn("jobs: interrupted by shutdown, released", "err", err)
		r.settle(base, log, "releasing", func(ctx context.Context) error {
			return r.store.Release(ctx, j.ID, owner)
		})
	case IsPermanent(err):
		r.fail(base, log, owner, j, err.Error())
	case j.Attempts >= k.opts.MaxAttempts:
		r.fail(base, log, owner, j, err.Error())
	default:
		delay := k.opts.Backoff(j.Attempts)
		log.Warn("jobs: attempt failed, will retry", "err", err, "retry_in", delay)
		r.retry(base, log, owner, j, r.clock.Now().Add(delay), err.Error())
		if delay < r.opts.Poll {
			// Sooner than the next poll: come back for it on time.
			time.AfterFunc(delay, r.Notify)
		}
	}
}

func (r *Runner) retry(base context.Context, log *slog.Logger, owner string, j *ports.Job, at time.Time, msg string) {
	r.settle(base, log, "retrying", func(ctx context.Context) error {
		return r.store.Retry(ctx, j.ID, owner, at, msg)
	})
}

func (r *Runner) fail(base context.Context, log *slog.Logger, owner string, j *ports.Job, msg string) {
	log.Error("jobs: giving up", "err", msg)
	r.settle(base, log, "failing", func(ctx context.Context) error {
		return r.store.Fail(ctx, j.ID, owner, msg)
	})
}

// settle records an outcome, also during shutdown: the write gets its own
// deadline rather than the cancelled handler ctx. A lost lease (the job ran
// past it and another worker took over) means the outcome no longer counts;
// it is logged and the other worker's run decides.
func (r *Runner) settle(base context.Context, log *slog.Logger, what string, write func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), settleTimeout)
	defer cancel()
	if err := write(ctx); err != nil {
		log.Error("jobs: "+what+" job", "err", err)
	}
}

// call runs h, turning a panic into an error so that one bad job cannot
// take the process down; it is then retried like any failure. The stack
// goes to the log, not into the job's last error.
func call(ctx context.Context, log *slog.Logger, h Handler, j *ports.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("jobs: handler panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return h(ctx, j)
}

// randomOwner names this process's leases; it only has to differ between
// processes sharing a database.
func randomOwner() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "runner-" + hex.EncodeToString(b)
}
