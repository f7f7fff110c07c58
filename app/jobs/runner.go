// Package jobs runs the durable job queue: workers claim due jobs from the
// job store, run the handler registered for their kind, and complete, retry
// (with exponential backoff) or give up on them.
//
// Several processes may run a Runner over one database: a claim leases a job
// to one of them, and a process that dies loses its jobs to the others when
// their leases run out, or at once to its own next instance when it runs as
// a named node (RunnerOptions.Node). A job may therefore run more than once
// (its worker died after the work but before recording it), never twice at
// the same time: handlers should be idempotent where the effect allows.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	// owner names this instance's leases (Node/Owner, or Owner), set when
	// Run starts; seq numbers the claims under it, so each lease has its
	// own owner name.
	owner string
	seq   atomic.Uint64

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
	// claimWaits counts the claims in a row that ran out of time (the run
	// loop's goroutine only).
	claimWaits int
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
// Call Run (or RunAs) once per Runner.
func (r *Runner) Run(ctx context.Context) {
	r.RunAs(ctx, r.opts.Node)
}

// RunAs is Run as the node named node (see RunnerOptions.Node), for a
// caller that takes the node's name only when it starts working: the
// server takes its data directory's node lock when it starts serving, not
// when it is assembled (the admin commands assemble it too, beside a
// running server).
func (r *Runner) RunAs(ctx context.Context, node string) {
	r.opts.Node, r.owner = node, r.opts.Owner
	if node != "" {
		r.owner = node + "/" + r.opts.Owner
	}
	// Handlers and outcome writes outlive ctx by the grace period, so a
	// shutdown does not cut a delivery off halfway when it could finish.
	base, cancelHandlers := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelHandlers()
	var wg sync.WaitGroup
	r.reclaim(ctx)
	ticker := time.NewTicker(r.opts.Poll)
	defer ticker.Stop()
	for {
		r.claimRound(ctx, base, &wg)
		if !r.awaitRound(ctx, ticker.C) {
			r.drain(&wg, cancelHandlers)
			return
		}
	}
}

// awaitRound waits for the next claim round: a Notify, or a poll that
// finds a job due. A poll claims only then: one short read instead of a
// claim per kind (each a write on SQLite's writer) every second of an idle
// server. It returns false when ctx ends.
func (r *Runner) awaitRound(ctx context.Context, tick <-chan time.Time) bool {
	for {
		select {
		case <-ctx.Done():
			return false
		case <-r.wake:
			return true
		case <-tick:
			if r.anyDue(ctx) {
				return true
			}
		}
	}
}

// anyDue asks the store whether some job is due; when it cannot tell, the
// poll claims as if one were.
func (r *Runner) anyDue(ctx context.Context) bool {
	cctx, cancel := context.WithTimeout(ctx, r.opts.ClaimWait)
	defer cancel()
	due, err := r.store.AnyDue(cctx, r.clock.Now())
	if err != nil {
		if ctx.Err() == nil {
			r.log.Debug("jobs: looking for due jobs; claiming anyway", "err", err)
		}
		return true
	}
	return due
}

// reclaim ends the leases of this node's earlier instances: they stopped
// without settling (a crash, a kill), and the caller of Run holds the
// node's name, so none of them is still running. Their jobs are then due
// at the first claim, with the same ids and payloads, so a receiver sees
// the same delivery again (at least once) rather than after the lease.
func (r *Runner) reclaim(ctx context.Context) {
	if r.opts.Node == "" {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, settleTimeout)
	defer cancel()
	n, err := r.store.ExpireLeases(cctx, r.opts.Node+"/", r.owner+"/", r.clock.Now())
	switch {
	case err != nil:
		r.log.Error("jobs: taking back the leases of this node's earlier instances; they run when their leases end",
			"node", r.opts.Node, "err", err)
	case n > 0:
		r.log.Info("jobs: took back the leases of this node's earlier instances", "node", r.opts.Node, "jobs", n)
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

// claimFailed logs a claim that failed; it is tried again at the next poll
// or wake-up. A claim that ran out of time waited behind something else
// (on SQLite a transaction holding the writer, which the error names): the
// jobs wait a little longer and nothing is lost, so it is logged at debug,
// and as a warning only when it keeps happening.
func (r *Runner) claimFailed(k *kindRunner, waited bool, err error) {
	if !waited {
		r.log.Error("jobs: claiming", "kind", k.name, "err", err)
		return
	}
	k.claimWaits++
	if k.claimWaits < claimWaitsBeforeWarning {
		r.log.Debug("jobs: a claim waited too long for the database; trying again", "kind", k.name,
			"wait", r.opts.ClaimWait, "err", err)
		return
	}
	r.log.Warn("jobs: claims keep waiting too long for the database; trying again", "kind", k.name,
		"claims", k.claimWaits, "wait", r.opts.ClaimWait, "err", err)
}

// claimRound claims, per kind, as many batches of due jobs as the kind has
// free slots, and starts each on a worker of its own.
func (r *Runner) claimRound(ctx, base context.Context, wg *sync.WaitGroup) {
	for _, k := range r.registered() {
		if ctx.Err() != nil {
			return
		}
		free := k.opts.Concurrency - int(k.running.Load())
		if free <= 0 {
			continue
		}
		owner := r.owner + "/" + strconv.FormatUint(r.seq.Add(1), 10)
		// The handlers' deadlines count from before the claim, so they end
		// before the lease does whatever the claim took.
		deadline := time.Now().Add(k.opts.handlerTimeout())
		// The claim is not cancelled with ctx: a claim that committed but
		// whose answer was dropped would strand its jobs until the lease ends.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.ClaimWait)
		batches, err := r.store.ClaimBatches(cctx, owner, []string{k.name}, r.clock.Now(), k.opts.Lease, free, k.opts.Batch)
		// A claim that ran out of time, or whose store says a wait ran out
		// (on SQLite, another process's lock past busy_timeout).
		waited := cctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)
		cancel()
		if err != nil {
			r.claimFailed(k, waited, err)
			continue
		}
		k.claimWaits = 0
		for _, b := range batches {
			k.running.Add(1)
			wg.Go(func() {
				defer func() {
					k.running.Add(-1)
					// A free slot, and maybe the next jobs of b's queue.
					r.Notify()
				}()
				r.workBatch(ctx, base, k, owner, deadline, b)
			})
		}
	}
}

// batchFlush is how long the outcomes of a batch's finished jobs may wait
// to be recorded together: a long batch to a slow receiver records its
// progress as it goes, so a crash re-sends little.
const batchFlush = time.Second

// workBatch runs the jobs of one claimed batch in order and records their
// outcomes together. A job that is to be retried ends the batch: the jobs
// after it are released unrun (due again at once, uncounted), so none of
// them runs before it. A job that completes or fails for good frees its
// queue, so the batch goes on. A job starts only while at least half a
// handler's time is left before deadline (the lease's, less the margin for
// settling); the rest of a batch that ran that long is released, as is the
// rest of a batch when the runner stops (ctx ends): shutdown waits for the
// running job only.
func (r *Runner) workBatch(ctx, base context.Context, k *kindRunner, owner string, deadline time.Time, batch []*ports.Job) {
	var outs []ports.JobOutcome
	flushed := time.Now()
	for i, j := range batch {
		if i > 0 && (ctx.Err() != nil || time.Until(deadline) < k.opts.handlerTimeout()/2) {
			for _, rest := range batch[i:] {
				outs = append(outs, ports.JobOutcome{ID: rest.ID, Kind: ports.JobRelease})
			}
			break
		}
		out, stop, retryIn := r.work(base, k, deadline, j)
		outs = append(outs, out)
		if stop {
			for _, rest := range batch[i+1:] {
				outs = append(outs, ports.JobOutcome{ID: rest.ID, Kind: ports.JobRelease})
			}
			r.settle(base, k, owner, outs)
			if out.Kind == ports.JobRetry && retryIn < r.opts.Poll {
				// Sooner than the next poll: come back for it on time (once
				// the retry is recorded, or the wake-up could find it running).
				time.AfterFunc(retryIn, r.Notify)
			}
			return
		}
		if i < len(batch)-1 && time.Since(flushed) >= batchFlush {
			r.settle(base, k, owner, outs)
			outs, flushed = nil, time.Now()
		}
	}
	r.settle(base, k, owner, outs)
}

// work runs one claimed job and says what became of it; stop is set when
// the jobs after it in its batch must not run now (it is to be retried in
// retryIn, or shutdown cut it off).
func (r *Runner) work(base context.Context, k *kindRunner, deadline time.Time, j *ports.Job) (
	_ ports.JobOutcome, stop bool, retryIn time.Duration) {
	log := r.log.With("kind", k.name, "job", j.ID, "attempt", j.Attempts)
	if j.Attempts > k.opts.MaxAttempts {
		// The last allowed run never reported back: its worker died (a
		// crash, a kill, maybe this very job) and the lease ran out. Running
		// it again could take this process down too.
		return r.fail(log, j, fmt.Sprintf("gave up after %d attempts; the last one's worker stopped without reporting", j.Attempts-1)), false, 0
	}
	hctx, cancel := context.WithDeadline(base, deadline)
	err := call(hctx, log, k.handle, j)
	cancel()

	switch {
	case err == nil:
		return ports.JobOutcome{ID: j.ID, Kind: ports.JobComplete}, false, 0
	case base.Err() != nil:
		// Shutdown cut the handler off: not the job's fault, so it is given
		// back uncounted, due at once for the next process that runs.
		log.Warn("jobs: interrupted by shutdown, released", "err", err)
		return ports.JobOutcome{ID: j.ID, Kind: ports.JobRelease}, true, 0
	case IsPermanent(err):
		return r.fail(log, j, err.Error()), false, 0
	case j.Attempts >= k.opts.MaxAttempts:
		return r.fail(log, j, err.Error()), false, 0
	default:
		delay := k.opts.Backoff(j.Attempts)
		log.Warn("jobs: attempt failed, will retry", "err", err, "retry_in", delay)
		return ports.JobOutcome{ID: j.ID, Kind: ports.JobRetry, RunAt: r.clock.Now().Add(delay), LastError: err.Error()},
			true, delay
	}
}

func (r *Runner) fail(log *slog.Logger, j *ports.Job, msg string) ports.JobOutcome {
	log.Error("jobs: giving up", "err", msg)
	return ports.JobOutcome{ID: j.ID, Kind: ports.JobFail, LastError: msg}
}

// settle records outcomes, also during shutdown: the write gets its own
// deadline rather than the cancelled handler ctx. A lost lease (the jobs
// ran past it and another worker took over) means those outcomes no longer
// count; it is logged and the other worker's run decides.
func (r *Runner) settle(base context.Context, k *kindRunner, owner string, outs []ports.JobOutcome) {
	if len(outs) == 0 {
		return
	}
	if k.opts.Settling != nil {
		k.opts.Settling()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(base), settleTimeout)
	defer cancel()
	if err := r.store.Settle(ctx, owner, outs); err != nil {
		r.log.Error("jobs: settling jobs", "owner", owner, "jobs", len(outs), "err", err)
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
