package ports

import (
	"context"
	"time"
)

// Job is one unit of queued background work (a webhook delivery, a mirror
// sync). Jobs live in the database so that they survive a restart and can be
// shared by several server processes on one Postgres.
type Job struct {
	ID int64
	// Kind names the handler that runs the job, e.g. "hook.deliver".
	Kind string
	// Queue orders jobs: of the jobs sharing a non-empty queue, only the
	// oldest unfinished one (lowest ID, pending or running, whatever its
	// kind) may run, so a queue runs one job at a time in enqueue order, also
	// while its head waits for a retry (per-hook delivery order). Empty: no
	// order. Jobs enqueued by transactions that overlap may start in either
	// order.
	Queue string
	// Dedup, when non-empty, makes Enqueue a no-op while an unfinished job of
	// the same kind has the same key (one pending sync per mirror).
	Dedup string
	// Payload is the handler's input, opaque to the queue (usually JSON).
	Payload []byte
	// Attempts counts the runs started so far, this one included once claimed.
	Attempts int
	// RunAt is when the job becomes due (again, after a failed attempt).
	RunAt time.Time
	// LastError is what the last failed attempt reported.
	LastError string
	// Created is when the job was enqueued.
	Created time.Time
}

// NewJob is a job to enqueue. A zero RunAt means now.
type NewJob struct {
	Kind, Queue, Dedup string
	Payload            []byte
	RunAt              time.Time
}

// JobState is where a job is in its life.
type JobState string

// Job states. A finished job is deleted; a job given up on stays as failed
// so that an administrator can see why.
const (
	JobPending JobState = "pending"
	JobRunning JobState = "running"
	JobFailed  JobState = "failed"
)

// JobOutcomeKind is what Settle does with one job.
type JobOutcomeKind int

// The outcomes Settle records, each as the single-job method of that name.
const (
	// JobComplete deletes the job (Complete).
	JobComplete JobOutcomeKind = iota + 1
	// JobRetry makes it pending again at RunAt with LastError (Retry).
	JobRetry
	// JobFail marks it failed with LastError (Fail).
	JobFail
	// JobRelease gives it back uncounted (Release).
	JobRelease
)

// JobOutcome is how one claimed job ended, for Settle.
type JobOutcome struct {
	ID   int64
	Kind JobOutcomeKind
	// RunAt is when a retried job is due again.
	RunAt time.Time
	// LastError is what a retried or failed job reports.
	LastError string
}

// JobStore is the durable job queue. Enqueue is meant to run inside the
// transaction of the write that causes the work (an outbox), so the work is
// queued if and only if the write commits.
//
// Times (now, runAt) come from the callers' clocks, so processes sharing a
// database need clocks in step to well within a lease.
type JobStore interface {
	// Enqueue adds a pending job and returns its id; with a Dedup key that an
	// unfinished job of the same kind holds, it adds nothing and returns that
	// job's id.
	Enqueue(ctx context.Context, j NewJob) (int64, error)
	// Claim leases to owner up to limit due jobs of these kinds: pending jobs
	// whose RunAt has come, and running jobs whose lease expired (their
	// worker died). A claimed job is running until now+lease and its
	// Attempts is incremented. Of a queue, only the oldest unfinished job is
	// ever claimable. Concurrent claimers never get the same job (Postgres:
	// FOR UPDATE SKIP LOCKED).
	Claim(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration, limit int) ([]*Job, error)
	// ClaimBatches leases as Claim does, up to limit batches: each due queue
	// head (and each due job without a queue) starts a batch, and a head
	// brings along up to batch-1 jobs that follow it in its queue, in id
	// order, as long as each is due and of these kinds (the first that is
	// not ends the batch, so a batch never skips a job of its queue). Every
	// job of a batch gets the same lease, and its Attempts is incremented.
	// Batches come in claim order (their first jobs'), each in queue order.
	// A batch's jobs must run in order; the holder settles the ones it ran
	// and releases the rest, so none runs while an earlier one waits.
	ClaimBatches(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration,
		limit, batch int) ([][]*Job, error)
	// Settle records the outcomes of jobs leased to owner in one
	// transaction. Each outcome applies only while its job is running under
	// owner's lease; the others still apply, and Settle then returns
	// errs.ErrConflict.
	Settle(ctx context.Context, owner string, outs []JobOutcome) error
	// Complete deletes a job its owner finished. Complete, Retry, Fail and
	// Release act only while the job is running under owner's lease;
	// otherwise (it finished, or its lease expired and another owner
	// claimed it) they change nothing and return errs.ErrConflict.
	Complete(ctx context.Context, id int64, owner string) error
	// Retry makes a job its owner failed pending again at runAt.
	Retry(ctx context.Context, id int64, owner string, runAt time.Time, lastError string) error
	// Fail marks a job its owner gives up on as failed; it frees its queue
	// and its dedup key.
	Fail(ctx context.Context, id int64, owner string, lastError string) error
	// ReleaseDedup frees the dedup key of a running job: an Enqueue of the
	// same kind and key then adds a new job, which runs after this one when
	// both share a queue. A handler whose work reads state that may change
	// while it runs (a pull request check) calls it first, so a change made
	// during the run is not swallowed by the run that missed it. A job that
	// is not running is left as it is.
	ReleaseDedup(ctx context.Context, id int64) error
	// Release gives a job back as if its owner had never claimed it: pending
	// and due as before, its Attempts count undone. A worker shutting down
	// releases what it could not finish, so a restart costs no attempt.
	Release(ctx context.Context, id int64, owner string) error
	// Get returns a job in any state (errs.ErrNotFound once completed).
	Get(ctx context.Context, id int64) (*Job, JobState, error)
	// ExpireLeases ends at now the leases of the running jobs whose owner
	// starts with prefix but not with keep, and returns how many it ended.
	// A restarted node passes its own name as prefix and its new instance's
	// as keep: the leases of its earlier instances died with them, so their
	// jobs become claimable at once instead of when the leases run out.
	// Their Attempts stay counted, as for any lease that ran out.
	ExpireLeases(ctx context.Context, prefix, keep string, now time.Time) (int64, error)
	// AnyDue reports whether some job, of any kind, is due at now: pending
	// with its RunAt come, or running with its lease ended. It is the
	// runner's cheap look before its claims at a poll, so it never answers
	// false while such a job exists; true may still find nothing to claim
	// (a queue's job behind its head, a kind no runner takes).
	AnyDue(ctx context.Context, now time.Time) (bool, error)
}
