package jobs_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/contract"
)

// memJobs is an in-memory ports.JobStore for the runner's tests. It keeps
// the port's contract (checked by TestMemJobsContract) under one mutex.
type memJobs struct {
	mu     sync.Mutex
	nextID int64
	jobs   map[int64]*memJob
	// claims counts ClaimBatches calls (Claim's too).
	claims atomic.Int64
}

type memJob struct {
	job        ports.Job
	state      ports.JobState
	owner      string
	leaseUntil time.Time
}

func newMemJobs() *memJobs { return &memJobs{jobs: map[int64]*memJob{}} }

var errMemLeaseLost = errs.Conflict("job is not leased to this owner")

func unfinished(st ports.JobState) bool { return st == ports.JobPending || st == ports.JobRunning }

func (m *memJobs) Enqueue(_ context.Context, nj ports.NewJob) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if nj.Dedup != "" {
		for id, j := range m.jobs {
			if j.job.Kind == nj.Kind && j.job.Dedup == nj.Dedup && unfinished(j.state) {
				return id, nil
			}
		}
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	runAt := nj.RunAt
	if runAt.IsZero() {
		runAt = now
	}
	m.nextID++
	m.jobs[m.nextID] = &memJob{
		job: ports.Job{
			ID: m.nextID, Kind: nj.Kind, Queue: nj.Queue, Dedup: nj.Dedup,
			Payload: append([]byte{}, nj.Payload...), RunAt: runAt.UTC(), Created: now,
		},
		state: ports.JobPending,
	}
	return m.nextID, nil
}

// blocked reports whether an older job of j's queue is unfinished.
func (m *memJobs) blocked(j *memJob) bool {
	if j.job.Queue == "" {
		return false
	}
	for id, o := range m.jobs {
		if id < j.job.ID && o.job.Queue == j.job.Queue && unfinished(o.state) {
			return true
		}
	}
	return false
}

// claimable reports whether j may be leased at now, queue order aside.
func claimable(j *memJob, kinds []string, now time.Time) bool {
	due := (j.state == ports.JobPending && !j.job.RunAt.After(now)) ||
		(j.state == ports.JobRunning && !j.leaseUntil.After(now))
	return due && slices.Contains(kinds, j.job.Kind)
}

func (m *memJobs) Claim(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration, limit int) ([]*ports.Job, error) {
	batches, err := m.ClaimBatches(ctx, owner, kinds, now, lease, limit, 1)
	var out []*ports.Job
	for _, b := range batches {
		out = append(out, b...)
	}
	return out, err
}

func (m *memJobs) ClaimBatches(_ context.Context, owner string, kinds []string, now time.Time, lease time.Duration,
	limit, batch int) ([][]*ports.Job, error) {
	m.claims.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	var due []*memJob
	for _, j := range m.jobs {
		if claimable(j, kinds, now) && !m.blocked(j) {
			due = append(due, j)
		}
	}
	slices.SortFunc(due, func(a, b *memJob) int {
		if c := a.job.RunAt.Compare(b.job.RunAt); c != 0 {
			return c
		}
		return int(a.job.ID - b.job.ID)
	})
	take := func(j *memJob) *ports.Job {
		j.state, j.owner, j.leaseUntil = ports.JobRunning, owner, now.Add(lease)
		j.job.Attempts++
		cp := j.job
		return &cp
	}
	var out [][]*ports.Job
	for _, head := range due[:min(len(due), max(limit, 0))] {
		var rest []*memJob
		if head.job.Queue != "" {
			for _, o := range m.jobs {
				if o.job.Queue == head.job.Queue && o.job.ID > head.job.ID && unfinished(o.state) {
					rest = append(rest, o)
				}
			}
			slices.SortFunc(rest, func(a, b *memJob) int { return int(a.job.ID - b.job.ID) })
		}
		// Checked before head is taken: head's lease makes it undue.
		n := 0
		for n < len(rest) && n < batch-1 && claimable(rest[n], kinds, now) {
			n++
		}
		b := []*ports.Job{take(head)}
		for _, o := range rest[:n] {
			b = append(b, take(o))
		}
		out = append(out, b)
	}
	return out, nil
}

func (m *memJobs) Settle(ctx context.Context, owner string, outs []ports.JobOutcome) error {
	var lost error
	for _, o := range outs {
		var err error
		switch o.Kind {
		case ports.JobComplete:
			err = m.Complete(ctx, o.ID, owner)
		case ports.JobRetry:
			err = m.Retry(ctx, o.ID, owner, o.RunAt, o.LastError)
		case ports.JobFail:
			err = m.Fail(ctx, o.ID, owner, o.LastError)
		case ports.JobRelease:
			err = m.Release(ctx, o.ID, owner)
		default:
			return errs.Invalid("job outcome", "kind")
		}
		if err != nil {
			lost = err
		}
	}
	return lost
}

// leased returns the job while owner holds it.
func (m *memJobs) leased(id int64, owner string) (*memJob, error) {
	j, ok := m.jobs[id]
	if !ok || j.state != ports.JobRunning || j.owner != owner {
		return nil, errMemLeaseLost
	}
	return j, nil
}

func (m *memJobs) Complete(_ context.Context, id int64, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.leased(id, owner); err != nil {
		return err
	}
	delete(m.jobs, id)
	return nil
}

func (m *memJobs) Retry(_ context.Context, id int64, owner string, runAt time.Time, lastError string) error {
	return m.settle(id, owner, ports.JobPending, func(j *ports.Job) { j.RunAt, j.LastError = runAt.UTC(), lastError })
}

func (m *memJobs) Fail(_ context.Context, id int64, owner string, lastError string) error {
	return m.settle(id, owner, ports.JobFailed, func(j *ports.Job) { j.LastError = lastError })
}

func (m *memJobs) ReleaseDedup(_ context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j, ok := m.jobs[id]; ok && j.state == ports.JobRunning {
		j.job.Dedup = ""
	}
	return nil
}

func (m *memJobs) Release(_ context.Context, id int64, owner string) error {
	return m.settle(id, owner, ports.JobPending, func(j *ports.Job) { j.Attempts-- })
}

// settle ends owner's lease on job id, leaving the job in state as change
// makes it.
func (m *memJobs) settle(id int64, owner string, state ports.JobState, change func(*ports.Job)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, err := m.leased(id, owner)
	if err != nil {
		return err
	}
	j.state, j.owner, j.leaseUntil = state, "", time.Time{}
	change(&j.job)
	return nil
}

func (m *memJobs) Get(_ context.Context, id int64) (*ports.Job, ports.JobState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		return nil, "", errs.NotFound("job not found")
	}
	cp := j.job
	return &cp, j.state, nil
}

// TestMemJobsContract keeps the fake honest: it passes the same contract as
// the SQL store, so what the runner's tests show holds on the real one.
func TestMemJobsContract(t *testing.T) {
	contract.RunJobSuite(t, func(t *testing.T) ports.JobStore { return newMemJobs() })
}
