package jobs_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
)

type sysClock struct{}

func (sysClock) Now() time.Time { return time.Now().UTC() }

// quick are options that keep tests fast: short leases and backoffs.
var quick = jobs.KindOptions{Lease: 2 * time.Second, Backoff: func(int) time.Duration { return 10 * time.Millisecond }}

// newTestRunner is a runner over a fresh fake store whose poll is long, so
// a test passing shows that Notify and finishing jobs wake it, not the poll.
func newTestRunner(t *testing.T, opts jobs.RunnerOptions) (*jobs.Runner, *memJobs) {
	t.Helper()
	store := newMemJobs()
	if opts.Poll == 0 {
		opts.Poll = time.Hour
	}
	return jobs.NewRunnerWith(store, sysClock{}, slog.New(slog.NewTextHandler(t.Output(), nil)), opts), store
}

func enqueue(t *testing.T, s ports.JobStore, nj ports.NewJob) int64 {
	t.Helper()
	id, err := s.Enqueue(t.Context(), nj)
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	return id
}

// gone reports whether a job completed (completed jobs are deleted).
func gone(s ports.JobStore, id int64) func() bool {
	return func() bool {
		_, _, err := s.Get(context.Background(), id)
		return errors.Is(err, errs.ErrNotFound)
	}
}

// runOne starts r, enqueues nj and wakes r for it; the poll is an hour
// away, so whatever happens next happens because of the Notify.
func runOne(t *testing.T, r *jobs.Runner, store ports.JobStore, nj ports.NewJob) int64 {
	t.Helper()
	testkit.Go(t, r.Run)
	id := enqueue(t, store, nj)
	r.Notify()
	return id
}

// failed waits for job id to fail and answers it.
func failed(t *testing.T, store ports.JobStore, id int64) *ports.Job {
	t.Helper()
	testkit.Eventually(t, "the job to fail", inState(store, id, ports.JobFailed))
	j, _, err := store.Get(t.Context(), id)
	if err != nil {
		t.Fatalf("get job %d: %v", id, err)
	}
	return j
}

func inState(s ports.JobStore, id int64, want ports.JobState) func() bool {
	return func() bool {
		_, st, err := s.Get(context.Background(), id)
		return err == nil && st == want
	}
}

func TestRunnerCompletesAJob(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	got := make(chan *ports.Job, 1)
	r.Handle("greet", quick, func(_ context.Context, j *ports.Job) error {
		got <- j
		return nil
	})
	id := runOne(t, r, store, ports.NewJob{Kind: "greet", Payload: []byte(`{"to":"world"}`)})
	testkit.Eventually(t, "the job to complete", gone(store, id))
	j := <-got
	is.Equal(j.ID, id)
	is.Equal(string(j.Payload), `{"to":"world"}`)
	is.Equal(j.Attempts, 1)
}

func TestRunnerProcessesJobsEnqueuedBeforeItStarted(t *testing.T) {
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	var n atomic.Int32
	r.Handle("k", quick, func(context.Context, *ports.Job) error { n.Add(1); return nil })
	for range 5 {
		enqueue(t, store, ports.NewJob{Kind: "k"})
	}
	testkit.Go(t, r.Run) // the first round claims without waiting for a poll or Notify
	testkit.Eventually(t, "five jobs to run", func() bool { return n.Load() == 5 })
}

func TestRunnerRetriesWithBackoffThenSucceeds(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	var mu sync.Mutex
	var backoffs []int
	opts := quick
	opts.Backoff = func(n int) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		backoffs = append(backoffs, n)
		return 20 * time.Millisecond
	}
	var runs atomic.Int32
	r.Handle("flaky", opts, func(_ context.Context, j *ports.Job) error {
		if runs.Add(1) < 3 {
			return errors.New("receiver down")
		}
		if j.LastError != "receiver down" || j.Attempts != 3 {
			return jobs.Permanent(errors.New("unexpected job state"))
		}
		return nil
	})
	id := runOne(t, r, store, ports.NewJob{Kind: "flaky"})
	// The poll is an hour away: the retries come back by themselves.
	testkit.Eventually(t, "the job to complete on its third run", gone(store, id))
	is.Equal(runs.Load(), int32(3))
	mu.Lock()
	defer mu.Unlock()
	is.Equal(backoffs, []int{1, 2}) // the delay after attempts 1 and 2
}

func TestRunnerGivesUpAfterMaxAttempts(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.MaxAttempts = 3
	var runs atomic.Int32
	r.Handle("doomed", opts, func(context.Context, *ports.Job) error {
		runs.Add(1)
		return errors.New("500 Internal Server Error")
	})
	id := runOne(t, r, store, ports.NewJob{Kind: "doomed"})
	j := failed(t, store, id)
	is.Equal(j.Attempts, 3)
	is.Equal(j.LastError, "500 Internal Server Error")
	is.Equal(runs.Load(), int32(3))
}

func TestRunnerFailsAPermanentErrorAtOnce(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	r.Handle("k", quick, func(context.Context, *ports.Job) error {
		return jobs.Permanent(errors.New("410 Gone"))
	})
	id := runOne(t, r, store, ports.NewJob{Kind: "k"})
	j := failed(t, store, id)
	is.Equal(j.Attempts, 1)
	is.Equal(j.LastError, "410 Gone")
}

func TestRunnerRecoversAPanicAsAFailure(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	var runs atomic.Int32
	r.Handle("k", quick, func(_ context.Context, j *ports.Job) error {
		if runs.Add(1) == 1 {
			var m map[string]int
			m["boom"]++ // a nil map write panics
		}
		if !strings.Contains(j.LastError, "handler panicked") {
			return jobs.Permanent(errors.New("last error was " + j.LastError))
		}
		return nil
	})
	id := runOne(t, r, store, ports.NewJob{Kind: "k"})
	testkit.Eventually(t, "the retried job to complete", gone(store, id))
	is.Equal(runs.Load(), int32(2))
}

func TestRunnerBoundsConcurrencyPerKind(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Concurrency = 3
	var inFlight, peak, done atomic.Int32
	release := make(chan struct{})
	r.Handle("k", opts, func(context.Context, *ports.Job) error {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		inFlight.Add(-1)
		done.Add(1)
		return nil
	})
	// Another kind has its own slots.
	other := make(chan struct{}, 1)
	r.Handle("other", quick, func(context.Context, *ports.Job) error { other <- struct{}{}; return nil })
	for range 10 {
		enqueue(t, store, ports.NewJob{Kind: "k"})
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "three jobs to run", func() bool { return inFlight.Load() == 3 })
	enqueue(t, store, ports.NewJob{Kind: "other"})
	r.Notify()
	select {
	case <-other:
	case <-time.After(10 * time.Second):
		t.Fatal("a job of another kind waited for the busy kind")
	}
	close(release)
	testkit.Eventually(t, "all ten jobs to run", func() bool { return done.Load() == 10 })
	is.Equal(peak.Load(), int32(3))
}

func TestRunnerKeepsAQueuesOrder(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Concurrency = 8
	var mu sync.Mutex
	var order []string
	failedOnce := false
	r.Handle("k", opts, func(_ context.Context, j *ports.Job) error {
		mu.Lock()
		defer mu.Unlock()
		if string(j.Payload) == "a2" && !failedOnce {
			failedOnce = true // a2 backs off; a3 must wait for it
			return errors.New("try again")
		}
		order = append(order, string(j.Payload))
		return nil
	})
	for _, p := range []string{"a1", "b1", "a2", "b2", "a3", "b3"} {
		enqueue(t, store, ports.NewJob{Kind: "k", Queue: p[:1], Payload: []byte(p)})
	}
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "six jobs to run", func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == 6 })
	var a, b []string
	for _, p := range order {
		if p[0] == 'a' {
			a = append(a, p)
		} else {
			b = append(b, p)
		}
	}
	is.Equal(a, []string{"a1", "a2", "a3"})
	is.Equal(b, []string{"b1", "b2", "b3"})
}

func TestRunnerOnlyClaimsRegisteredKinds(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	r.Handle("mine", quick, func(context.Context, *ports.Job) error { return nil })
	theirs := enqueue(t, store, ports.NewJob{Kind: "theirs"})
	mine := enqueue(t, store, ports.NewJob{Kind: "mine"})
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "my job to complete", gone(store, mine))
	_, st, err := store.Get(t.Context(), theirs)
	is.NoErr(err)
	is.Equal(st, ports.JobPending) // left for a process that handles it
}

func TestRunnerHandlerDeadlineEndsBeforeTheLease(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	lease := make(chan time.Duration, 1)
	claimedAt := time.Now()
	r.Handle("k", jobs.KindOptions{Lease: 10 * time.Second}, func(ctx context.Context, _ *ports.Job) error {
		d, ok := ctx.Deadline()
		if !ok {
			return jobs.Permanent(errors.New("no deadline"))
		}
		lease <- d.Sub(claimedAt)
		return nil
	})
	enqueue(t, store, ports.NewJob{Kind: "k"})
	testkit.Go(t, r.Run)
	d := <-lease
	is.True(d > 5*time.Second)  // most of the lease is the handler's
	is.True(d < 10*time.Second) // but it ends before the lease does
}

func TestRunnerTimesOutAHandlerAndRetries(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.Lease = 250 * time.Millisecond
	var runs atomic.Int32
	r.Handle("slow", opts, func(ctx context.Context, _ *ports.Job) error {
		if runs.Add(1) == 1 {
			<-ctx.Done() // hangs until its deadline
			return ctx.Err()
		}
		return nil
	})
	id := enqueue(t, store, ports.NewJob{Kind: "slow"})
	testkit.Go(t, r.Run)
	testkit.Eventually(t, "the retried job to complete", gone(store, id))
	is.Equal(runs.Load(), int32(2))
}

func TestRunnerShutdownWaitsForRunningHandlers(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{Grace: time.Minute})
	started, release := make(chan struct{}), make(chan struct{})
	var ctxDoneEarly atomic.Bool
	r.Handle("k", quick, func(ctx context.Context, _ *ports.Job) error {
		close(started)
		<-release
		ctxDoneEarly.Store(ctx.Err() != nil)
		return nil
	})
	id := enqueue(t, store, ports.NewJob{Kind: "k"})
	stop := testkit.Go(t, r.Run)
	<-started
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Run returned while a handler was running")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-stopped
	is.True(!ctxDoneEarly.Load()) // within the grace the handler's ctx stays live
	is.True(gone(store, id)())    // and its outcome was recorded
	// Nothing is claimed after the stop.
	late := enqueue(t, store, ports.NewJob{Kind: "k"})
	r.Notify()
	_, st, err := store.Get(t.Context(), late)
	is.NoErr(err)
	is.Equal(st, ports.JobPending)
}

func TestRunnerShutdownCancelsHandlersAfterGraceAndReleases(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{Grace: 50 * time.Millisecond})
	started := make(chan struct{})
	r.Handle("k", jobs.KindOptions{Lease: time.Minute, MaxAttempts: 1}, func(ctx context.Context, _ *ports.Job) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})
	id := enqueue(t, store, ports.NewJob{Kind: "k"})
	stop := testkit.Go(t, r.Run)
	<-started
	stop()
	j, st, err := store.Get(t.Context(), id)
	is.NoErr(err)
	is.Equal(st, ports.JobPending)      // not failed, though it was its last attempt
	is.Equal(j.Attempts, 0)             // the interrupted run does not count
	is.True(!j.RunAt.After(time.Now())) // due again at once for the next process
	is.Equal(j.LastError, "")
}

func TestRunnerGivesUpOnAJobWhoseWorkersKeepDying(t *testing.T) {
	is := is.New(t)
	r, store := newTestRunner(t, jobs.RunnerOptions{})
	opts := quick
	opts.MaxAttempts = 2
	var runs atomic.Int32
	r.Handle("k", opts, func(context.Context, *ports.Job) error { runs.Add(1); return nil })
	id := enqueue(t, store, ports.NewJob{Kind: "k"})
	// Two workers claimed it and died (their leases lapsed at once).
	for range 2 {
		_, err := store.Claim(t.Context(), "dead", []string{"k"}, time.Now(), -time.Second, 1)
		is.NoErr(err)
	}
	testkit.Go(t, r.Run)
	j := failed(t, store, id)
	is.Equal(runs.Load(), int32(0)) // a third run could take this process down too
	is.Equal(j.LastError, "gave up after 2 attempts; the last one's worker stopped without reporting")
}

func TestRunnerPollsForWorkItWasNotToldAbout(t *testing.T) {
	r, store := newTestRunner(t, jobs.RunnerOptions{Poll: 20 * time.Millisecond})
	r.Handle("k", quick, func(context.Context, *ports.Job) error { return nil })
	testkit.Go(t, r.Run)
	// Enqueued "by another process": no Notify here.
	id := enqueue(t, store, ports.NewJob{Kind: "k"})
	testkit.Eventually(t, "the job to complete", gone(store, id))
}

func TestRunnerHandleTwicePanics(t *testing.T) {
	is := is.New(t)
	r, _ := newTestRunner(t, jobs.RunnerOptions{})
	r.Handle("k", quick, func(context.Context, *ports.Job) error { return nil })
	defer func() { is.True(recover() != nil) }()
	r.Handle("k", quick, func(context.Context, *ports.Job) error { return nil })
}

func TestDefaultBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempt int
		want    time.Duration
	}{
		{0, 10 * time.Second},
		{1, 10 * time.Second},
		{2, 20 * time.Second},
		{3, 40 * time.Second},
		{9, 2560 * time.Second},
		{10, time.Hour},
		{64, time.Hour},
		{1 << 30, time.Hour},
	} {
		is := is.New(t)
		for range 20 {
			d := jobs.DefaultBackoff(tc.attempt)
			is.True(d >= tc.want-tc.want/10) // jitter stays within ±10%
			is.True(d <= tc.want+tc.want/10)
		}
	}
}

func TestPermanent(t *testing.T) {
	is := is.New(t)
	base := errors.New("410 Gone")
	err := jobs.Permanent(base)
	is.True(jobs.IsPermanent(err))
	is.True(errors.Is(err, base))
	is.Equal(err.Error(), "410 Gone")
	is.True(!jobs.IsPermanent(base))
	is.NoErr(jobs.Permanent(nil))
}

// TestRunnerPollsClaimOnlyWhenAJobIsDue runs a runner with a short poll
// over an empty store: after its first round it claims nothing while
// nothing is due, however many polls pass. A job another process enqueues
// (no Notify reaches this runner) is claimed at a poll; one whose time has
// not come is not, until it has.
func TestRunnerPollsClaimOnlyWhenAJobIsDue(t *testing.T) {
	is := is.New(t)
	const poll = 5 * time.Millisecond
	r, store := newTestRunner(t, jobs.RunnerOptions{Poll: poll})
	var ran atomic.Int32
	r.Handle("k", quick, func(context.Context, *ports.Job) error { ran.Add(1); return nil })
	r.Handle("other", quick, func(context.Context, *ports.Job) error { return nil })
	testkit.Go(t, r.Run)
	// The first round claims each kind, and so does the round the Notify
	// of Handle (remembered before Run) asks for.
	testkit.Eventually(t, "the first round", func() bool { return store.claims.Load() >= 2 })
	time.Sleep(10 * poll)
	idle := store.claims.Load()
	time.Sleep(20 * poll)
	is.Equal(store.claims.Load(), idle) // twenty idle polls, no claim

	id := enqueue(t, store, ports.NewJob{Kind: "k"}) // as another node would: no Notify
	testkit.Eventually(t, "the job enqueued elsewhere to run", gone(store, id))
	is.Equal(ran.Load(), int32(1))

	later := enqueue(t, store, ports.NewJob{Kind: "k", RunAt: time.Now().Add(200 * time.Millisecond)})
	claims := store.claims.Load()
	testkit.Eventually(t, "the delayed job to run once due", gone(store, later))
	is.True(store.claims.Load() > claims)
	is.Equal(ran.Load(), int32(2))
}
