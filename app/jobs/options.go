package jobs

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Defaults of KindOptions and RunnerOptions; a zero option takes these.
const (
	// DefaultMaxAttempts with DefaultBackoff keeps retrying for about an hour
	// and a half (waits of 10s, 20s, … 43min), long enough to ride out a
	// receiver's deploy or a short outage without keeping a backlog forever.
	DefaultMaxAttempts = 10
	// DefaultConcurrency bounds the jobs of one kind running at once in one
	// process, so a slow receiver cannot take every worker.
	DefaultConcurrency = 4
	// DefaultLease is how long a claimed job stays this process's; a handler
	// gets it less leaseMargin.
	DefaultLease = 5 * time.Minute
	// DefaultPoll is how often the queue is looked at when nothing wakes the
	// runner: it finds jobs other processes enqueued or retried, and leases
	// that expired.
	DefaultPoll = time.Second
	// DefaultGrace is how long running handlers may go on after Run's ctx
	// ends before their own ctx is cancelled.
	DefaultGrace = 10 * time.Second
)

// Backoff bounds of DefaultBackoff.
const (
	backoffBase = 10 * time.Second
	backoffCap  = time.Hour
)

// DefaultBackoff waits 10s·2^(attempt-1), capped at an hour, spread by ±10%
// so that jobs that failed together (a receiver that was down) do not all
// come back in the same instant.
func DefaultBackoff(attempt int) time.Duration {
	d := backoffCap
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 20 { // beyond that 2^n is past the cap anyway
		d = min(backoffBase<<(attempt-1), backoffCap)
	}
	jitter := time.Duration(rand.Int64N(int64(d/5)+1)) - d/10
	return d + jitter
}

// KindOptions tune how one kind of job runs. Zero values take the defaults.
type KindOptions struct {
	// MaxAttempts is how many runs a job gets before it fails.
	MaxAttempts int
	// Concurrency bounds how many jobs of the kind run at once in this process.
	Concurrency int
	// Lease is how long a claimed job (or batch) is this process's before
	// another may take it over. Leases are never extended: the handlers run
	// under a deadline a margin before the lease ends, so a job is never run
	// twice at once, and a worker that died is noticed when its lease runs
	// out.
	Lease time.Duration
	// Backoff is the delay before the retry that follows attempt n (1-based);
	// nil means DefaultBackoff.
	Backoff func(attempt int) time.Duration
	// Batch is how many jobs of one queue a worker leases at once (0 or 1:
	// one). The jobs of a batch run one after another on that worker, in
	// queue order, under one lease, and their outcomes are recorded together,
	// which saves a queue's jobs two writes each. A job of a batch starts
	// only while at least half the handler's usual time is left of the
	// lease, so a batch to a slow receiver hands the rest back.
	Batch int
	// Settling, when set, is called before the outcomes of the kind's jobs
	// are recorded: a handler that leaves a write of its own going (to
	// overlap it with the next job) waits for it there, so the job is
	// never recorded done before that write is.
	Settling func()
}

func (o KindOptions) withDefaults() KindOptions {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Backoff == nil {
		o.Backoff = DefaultBackoff
	}
	o.Batch = max(o.Batch, 1)
	return o
}

// handlerTimeout leaves a margin of the lease for settling the job (the
// Complete/Retry/Fail write) before another worker may take it over.
func (o KindOptions) handlerTimeout() time.Duration {
	return o.Lease - min(o.Lease/5, time.Minute)
}

// RunnerOptions tune the runner as a whole. Zero values take the defaults.
type RunnerOptions struct {
	// Owner names this process in the leases it takes (logs, debugging);
	// empty means a random name. Each claim gets its own lease name under it.
	// With Node set, Owner names this instance of the node (Node/Owner).
	Owner string
	// Node names this node, the same across its restarts, when the caller
	// holds the name exclusively: no other live process runs under it (the
	// data directory's node lock, see adapters/node). Run then starts by
	// ending the leases of the node's earlier instances, which died with
	// them, so that their jobs run again at once rather than when the
	// leases run out. Empty: leases left behind by a crash run out. RunAs
	// sets it when Run starts.
	Node string
	// Poll is how often the queue is looked at without a Notify.
	Poll time.Duration
	// Grace is how long running handlers may go on after Run's ctx ends
	// before their ctx is cancelled.
	Grace time.Duration
	// ClaimWait bounds how long one claim may wait for the database (on
	// SQLite for its one writer, which a long transaction holds). A claim
	// that runs out is tried again at the next poll; zero means
	// DefaultClaimWait.
	ClaimWait time.Duration
}

// DefaultClaimWait is RunnerOptions.ClaimWait's default: far beyond a
// claim's own cost, so a claim that runs out waited behind something else.
const DefaultClaimWait = 30 * time.Second

// claimWaitsBeforeWarning is how many claims in a row may run out before
// the runner warns: one is a long transaction that was in the way, several
// are a database that is stuck.
const claimWaitsBeforeWarning = 3

func (o RunnerOptions) withDefaults() RunnerOptions {
	if o.Owner == "" {
		o.Owner = randomOwner()
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.ClaimWait <= 0 {
		o.ClaimWait = DefaultClaimWait
	}
	return o
}

type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent marks err as one retrying cannot fix (a 4xx from a receiver, a
// mirror whose repository is gone): the job fails at once instead of
// spending its remaining attempts.
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
