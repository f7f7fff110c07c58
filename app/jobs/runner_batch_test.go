package jobs_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
)

// batchLog is a fake store that remembers the batches it leased.
type batchLog struct {
	*memJobs
	mu      sync.Mutex
	batches [][]string
}

func (b *batchLog) ClaimBatches(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration,
	limit, batch int) ([][]*ports.Job, error) {
	got, err := b.memJobs.ClaimBatches(ctx, owner, kinds, now, lease, limit, batch)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, bt := range got {
		var ps []string
		for _, j := range bt {
			ps = append(ps, string(j.Payload))
		}
		b.batches = append(b.batches, ps)
	}
	return got, err
}

func (b *batchLog) leased() [][]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([][]string(nil), b.batches...)
}

func newBatchRunner(t *testing.T, opts jobs.RunnerOptions) (*jobs.Runner, *batchLog) {
	t.Helper()
	store := &batchLog{memJobs: newMemJobs()}
	if opts.Poll == 0 {
		opts.Poll = time.Hour
	}
	return jobs.NewRunnerWith(store, sysClock{}, slog.New(slog.NewTextHandler(t.Output(), nil)), opts), store
}

// runLog records the payloads handlers ran, in order.
type runLog struct {
	mu   sync.Mutex
	runs []string
}

func (l *runLog) add(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs = append(l.runs, p)
}

func (l *runLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.runs...)
}

func TestRunnerBatchFailureMidBatchKeepsOrder(t *testing.T) {
	is := is.New(t)
	r, store := newBatchRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Batch = 10
	var log runLog
	failedOnce := false
	r.Handle("k", opts, func(_ context.Context, j *ports.Job) error {
		p := string(j.Payload)
		log.add(p)
		if p == "a3" && !failedOnce {
			failedOnce = true // a3 backs off; a4… must wait for it
			return errors.New("503")
		}
		if j.Attempts != 1 && p != "a3" {
			return jobs.Permanent(errors.New("a job released unrun was counted"))
		}
		return nil
	})
	var ids []int64
	for _, p := range []string{"a1", "a2", "a3", "a4", "a5", "a6"} {
		ids = append(ids, enqueue(t, store, ports.NewJob{Kind: "k", Queue: "a", Payload: []byte(p)}))
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "every job to complete", func() bool {
		for _, id := range ids {
			if !gone(store, id)() {
				return false
			}
		}
		return true
	})
	is.Equal(log.get(), []string{"a1", "a2", "a3", "a3", "a4", "a5", "a6"})
	leased := store.leased()
	is.Equal(leased[0], []string{"a1", "a2", "a3", "a4", "a5", "a6"}) // one lease for the backlog
	is.Equal(leased[1], []string{"a3", "a4", "a5", "a6"})             // after the backoff, the rest again
	is.Equal(len(leased), 2)
}

func TestRunnerBatchGoesOnAfterAPermanentFailure(t *testing.T) {
	is := is.New(t)
	r, store := newBatchRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Batch = 10
	var log runLog
	r.Handle("k", opts, func(_ context.Context, j *ports.Job) error {
		log.add(string(j.Payload))
		if string(j.Payload) == "a2" {
			return jobs.Permanent(errors.New("410 Gone"))
		}
		return nil
	})
	var ids []int64
	for _, p := range []string{"a1", "a2", "a3"} {
		ids = append(ids, enqueue(t, store, ports.NewJob{Kind: "k", Queue: "a", Payload: []byte(p)}))
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "the last job to complete", gone(store, ids[2]))
	j := failed(t, store, ids[1]) // a failed job is finished: the queue moves on
	is.Equal(j.LastError, "410 Gone")
	is.Equal(log.get(), []string{"a1", "a2", "a3"})
	is.Equal(store.leased(), [][]string{{"a1", "a2", "a3"}})
}

func TestRunnerBatchReleasesTheRestOnShutdown(t *testing.T) {
	is := is.New(t)
	r, store := newBatchRunner(t, jobs.RunnerOptions{Grace: time.Minute})
	opts := quick
	opts.Batch = 5
	started, release := make(chan struct{}), make(chan struct{})
	var log runLog
	r.Handle("k", opts, func(_ context.Context, j *ports.Job) error {
		log.add(string(j.Payload))
		if string(j.Payload) == "a1" {
			close(started)
			<-release
		}
		return nil
	})
	var ids []int64
	for _, p := range []string{"a1", "a2", "a3"} {
		ids = append(ids, enqueue(t, store, ports.NewJob{Kind: "k", Queue: "a", Payload: []byte(p)}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { r.Run(ctx); close(stopped) }()
	<-started
	cancel() // shutdown begins while a1 runs
	close(release)
	select {
	case <-stopped: // shutdown waits for the running job, not for the rest of its batch
	case <-time.After(testkit.Deadline):
		t.Fatal("the runner did not stop")
	}
	is.True(gone(store, ids[0])())
	is.Equal(log.get(), []string{"a1"})
	for _, id := range ids[1:] {
		j, st, err := store.Get(t.Context(), id)
		is.NoErr(err)
		is.Equal(st, ports.JobPending) // given back for the next process
		is.Equal(j.Attempts, 0)        // uncounted
	}
}

func TestRunnerBatchHandsBackWhatTheLeaseCannotCover(t *testing.T) {
	is := is.New(t)
	r, store := newBatchRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Batch = 5
	// A handler gets 320ms of the lease; a job of a batch starts only while
	// 160ms are left, so at most two of these 100ms jobs run per lease.
	opts.Lease = 400 * time.Millisecond
	var log runLog
	r.Handle("k", opts, func(_ context.Context, j *ports.Job) error {
		log.add(string(j.Payload))
		time.Sleep(100 * time.Millisecond)
		return nil
	})
	var ids []int64
	for _, p := range []string{"a1", "a2", "a3", "a4", "a5"} {
		ids = append(ids, enqueue(t, store, ports.NewJob{Kind: "k", Queue: "a", Payload: []byte(p)}))
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "the last job to complete", gone(store, ids[4]))
	is.Equal(log.get(), []string{"a1", "a2", "a3", "a4", "a5"}) // each once, in order
	leased := store.leased()
	is.Equal(leased[0], []string{"a1", "a2", "a3", "a4", "a5"})
	is.True(len(leased) >= 3)
}

// settleWatch is a fake store that notes, at each Settle, whether the
// handler's own write had finished.
type settleWatch struct {
	*memJobs
	written func() bool
	mu      sync.Mutex
	early   int
	settles int
}

func (s *settleWatch) Settle(ctx context.Context, owner string, outs []ports.JobOutcome) error {
	s.mu.Lock()
	s.settles++
	if !s.written() {
		s.early++
	}
	s.mu.Unlock()
	return s.memJobs.Settle(ctx, owner, outs)
}

func TestRunnerSettlingWaitsForTheHandlersWrites(t *testing.T) {
	is := is.New(t)
	var mu sync.Mutex
	pending := 0
	store := &settleWatch{memJobs: newMemJobs(), written: func() bool { mu.Lock(); defer mu.Unlock(); return pending == 0 }}
	r := jobs.NewRunnerWith(store, sysClock{}, slog.New(slog.NewTextHandler(t.Output(), nil)), jobs.RunnerOptions{Poll: time.Hour})
	var wg sync.WaitGroup
	opts := quick
	opts.Batch = 4
	opts.Settling = wg.Wait
	r.Handle("k", opts, func(context.Context, *ports.Job) error {
		// A write left going while the next job runs.
		mu.Lock()
		pending++
		mu.Unlock()
		wg.Go(func() {
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			pending--
			mu.Unlock()
		})
		return nil
	})
	var ids []int64
	for range 4 {
		ids = append(ids, enqueue(t, store, ports.NewJob{Kind: "k", Queue: "q"}))
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "the jobs to complete", gone(store, ids[3]))
	store.mu.Lock()
	defer store.mu.Unlock()
	is.True(store.settles > 0)
	is.Equal(store.early, 0) // never recorded done before the handler's write
}
