package test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// The job queue's end-to-end tests run the real Runner over real databases
// on both backends. Each sqlstore.Open stands for one server process: two
// handles on one database are two processes sharing it.

// jobsQuick keeps retries and leases short so that no test waits long.
var jobsQuick = jobs.KindOptions{Lease: 2 * time.Second, Backoff: func(int) time.Duration { return 20 * time.Millisecond }}

// jobsBackends runs f on a fresh SQLite and a fresh Postgres database; cfg
// may be opened any number of times.
func jobsBackends(t *testing.T, f func(t *testing.T, cfg sqlstore.Config)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); f(t, sqlstore.Config{DataDir: t.TempDir()}) })
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, sqlstore.Config{DSN: testserver.CreatePostgresDB(t)})
	})
}

// jobsOpen is one process's handle on cfg's database, migrated; close it
// early to play a process that went away.
func jobsOpen(t *testing.T, cfg sqlstore.Config) *sqlstore.DB {
	t.Helper()
	d, err := sqlstore.Open(t.Context(), cfg)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(t.Context()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return d
}

// jobsRunner is a runner over d that polls often, so expired leases and
// other processes' work are found quickly.
func jobsRunner(t *testing.T, d *sqlstore.DB, owner string) *jobs.Runner {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	return jobs.NewRunnerWith(d.Stores().Jobs, security.SystemClock{}, log,
		jobs.RunnerOptions{Owner: owner, Poll: 50 * time.Millisecond, Grace: 100 * time.Millisecond})
}

func jobsEnqueue(t *testing.T, d *sqlstore.DB, nj ports.NewJob) int64 {
	t.Helper()
	var id int64
	// As the services do: enqueue inside the causing write's transaction.
	err := d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
		var err error
		id, err = tx.Jobs.Enqueue(ctx, nj)
		return err
	})
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	return id
}

// jobsState is a job's state, or "done" once it completed (and was deleted).
func jobsState(t *testing.T, d *sqlstore.DB, id int64) ports.JobState {
	t.Helper()
	_, st, err := d.Stores().Jobs.Get(context.Background(), id)
	if errors.Is(err, errs.ErrNotFound) {
		return "done"
	}
	if err != nil {
		t.Fatalf("get job %d: %v", id, err)
	}
	return st
}

func TestJobsEnqueuedJobIsProcessed(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		d := jobsOpen(t, cfg)
		r := jobsRunner(t, d, "p1")
		got := make(chan *ports.Job, 1)
		r.Handle("test.echo", jobsQuick, func(_ context.Context, j *ports.Job) error { got <- j; return nil })
		testkit.Go(t, r.Run)

		id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.echo", Payload: []byte(`{"n":1}`)})
		r.Notify()
		j := <-got
		is.Equal(j.ID, id)
		is.Equal(string(j.Payload), `{"n":1}`)
		is.Equal(j.Attempts, 1)
		testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, d, id) == "done" })
	})
}

func TestJobsRetryThenSuccess(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		d := jobsOpen(t, cfg)
		r := jobsRunner(t, d, "p1")
		var mu sync.Mutex
		var seen []string
		r.Handle("test.flaky", jobsQuick, func(_ context.Context, j *ports.Job) error {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%d:%s", j.Attempts, j.LastError))
			if j.Attempts < 3 {
				return fmt.Errorf("refused #%d", j.Attempts)
			}
			return nil
		})
		testkit.Go(t, r.Run)
		id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.flaky"})
		r.Notify()
		testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, d, id) == "done" })
		mu.Lock()
		defer mu.Unlock()
		// Each retry sees the attempt count and the previous failure.
		is.Equal(seen, []string{"1:", "2:refused #1", "3:refused #2"})
	})
}

func TestJobsGiveUpAfterMaxAttempts(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		d := jobsOpen(t, cfg)
		r := jobsRunner(t, d, "p1")
		opts := jobsQuick
		opts.MaxAttempts = 4
		var runs atomic.Int32
		r.Handle("test.doomed", opts, func(context.Context, *ports.Job) error {
			runs.Add(1)
			return errors.New("502 Bad Gateway")
		})
		testkit.Go(t, r.Run)
		id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.doomed"})
		r.Notify()
		testkit.Eventually(t, "the job to fail", func() bool { return jobsState(t, d, id) == ports.JobFailed })
		j, _, err := d.Stores().Jobs.Get(t.Context(), id)
		is.NoErr(err)
		is.Equal(j.Attempts, 4)
		is.Equal(j.LastError, "502 Bad Gateway")
		is.Equal(runs.Load(), int32(4))
	})
}

func TestJobsSurviveARestart(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		t.Run("CrashedProcessesJobIsTakenOverWhenItsLeaseExpires", func(t *testing.T) {
			is := is.New(t)
			crashed := jobsOpen(t, cfg)
			id := jobsEnqueue(t, crashed, ports.NewJob{Kind: "test.work", Payload: []byte("x")})
			// The first process claims the job and dies before settling it.
			claimed, err := crashed.Stores().Jobs.Claim(t.Context(), "crashed", []string{"test.work"},
				time.Now(), 300*time.Millisecond, 1)
			is.NoErr(err)
			is.Equal(len(claimed), 1)
			is.NoErr(crashed.Close())

			next := jobsOpen(t, cfg)
			r := jobsRunner(t, next, "next")
			got := make(chan *ports.Job, 1)
			r.Handle("test.work", jobsQuick, func(_ context.Context, j *ports.Job) error { got <- j; return nil })
			testkit.Go(t, r.Run)
			select {
			case j := <-got:
				is.Equal(j.ID, id)
				is.Equal(j.Attempts, 2) // the crashed run counted
			case <-time.After(30 * time.Second):
				t.Fatal("the next process never took the job over")
			}
			testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, next, id) == "done" })
		})

		t.Run("StoppedProcessesJobIsRunByTheNext", func(t *testing.T) {
			is := is.New(t)
			first := jobsOpen(t, cfg)
			r1 := jobsRunner(t, first, "first")
			started := make(chan struct{})
			r1.Handle("test.long", jobsQuick, func(ctx context.Context, _ *ports.Job) error {
				close(started)
				<-ctx.Done() // outlasts the shutdown grace
				return ctx.Err()
			})
			stop := testkit.Go(t, r1.Run)
			id := jobsEnqueue(t, first, ports.NewJob{Kind: "test.long"})
			r1.Notify()
			<-started
			stop()
			is.Equal(jobsState(t, first, id), ports.JobPending) // released, not lost or failed
			is.NoErr(first.Close())

			second := jobsOpen(t, cfg)
			r2 := jobsRunner(t, second, "second")
			var runs, attempt atomic.Int32
			r2.Handle("test.long", jobsQuick, func(_ context.Context, j *ports.Job) error {
				runs.Add(1)
				attempt.Store(int32(j.Attempts))
				return nil
			})
			testkit.Go(t, r2.Run)
			testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, second, id) == "done" })
			is.Equal(runs.Load(), int32(1))
			is.Equal(attempt.Load(), int32(1)) // the interrupted run was given back uncounted
		})

		t.Run("JobsEnqueuedWhileNoRunnerRanAreProcessedOnStart", func(t *testing.T) {
			is := is.New(t)
			offline := jobsOpen(t, cfg)
			var ids []int64
			for i := range 5 {
				ids = append(ids, jobsEnqueue(t, offline, ports.NewJob{Kind: "test.later", Payload: []byte(strconv.Itoa(i))}))
			}
			is.NoErr(offline.Close())

			d := jobsOpen(t, cfg)
			r := jobsRunner(t, d, "p")
			var runs atomic.Int32
			r.Handle("test.later", jobsQuick, func(context.Context, *ports.Job) error { runs.Add(1); return nil })
			testkit.Go(t, r.Run) // no Notify: the first round finds them
			for _, id := range ids {
				testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, d, id) == "done" })
			}
			is.Equal(runs.Load(), int32(5))
		})
	})
}

func TestJobsTwoProcessesOnOneDatabaseRunEachJobOnce(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		const total = 200
		a, b := jobsOpen(t, cfg), jobsOpen(t, cfg)
		var mu sync.Mutex
		runs := map[int64]int{}
		byProcess := map[string]int{}
		// Each process's first job waits until the other has started one, so
		// both are seen working the queue at once.
		arrived := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
		other := map[string]string{"a": "b", "b": "a"}
		handler := func(name string) jobs.Handler {
			var first sync.Once
			return func(ctx context.Context, j *ports.Job) error {
				first.Do(func() {
					close(arrived[name])
					select {
					case <-arrived[other[name]]:
					case <-ctx.Done():
					}
				})
				mu.Lock()
				defer mu.Unlock()
				runs[j.ID]++
				byProcess[name]++
				return nil
			}
		}
		opts := jobsQuick
		opts.Concurrency = 4
		ids := make([]int64, 0, total)
		for i := range total {
			ids = append(ids, jobsEnqueue(t, a, ports.NewJob{Kind: "test.shared", Payload: []byte(strconv.Itoa(i))}))
		}
		ra, rb := jobsRunner(t, a, "a"), jobsRunner(t, b, "b")
		ra.Handle("test.shared", opts, handler("a"))
		rb.Handle("test.shared", opts, handler("b"))
		testkit.Go(t, ra.Run)
		testkit.Go(t, rb.Run)

		testkit.Eventually(t, "all jobs to run", func() bool { mu.Lock(); defer mu.Unlock(); return len(runs) == total })
		for _, id := range ids {
			testkit.Eventually(t, "the job to be done", func() bool { return jobsState(t, a, id) == "done" })
		}
		mu.Lock()
		defer mu.Unlock()
		for _, id := range ids {
			if runs[id] != 1 {
				t.Errorf("job %d ran %d times", id, runs[id])
			}
		}
		is.True(byProcess["a"] > 0) // both processes did work
		is.True(byProcess["b"] > 0)
		is.Equal(byProcess["a"]+byProcess["b"], total)
		t.Logf("process a ran %d jobs, b %d", byProcess["a"], byProcess["b"])
	})
}

func TestJobsQueueOrderAcrossProcesses(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		const queues, perQueue = 3, 10
		a, b := jobsOpen(t, cfg), jobsOpen(t, cfg)
		var mu sync.Mutex
		order := map[string][]int{}
		running := map[string]bool{}
		var overlaps atomic.Int32
		failed := map[string]bool{}
		handler := func(_ context.Context, j *ports.Job) error {
			mu.Lock()
			if running[j.Queue] {
				overlaps.Add(1) // two jobs of one queue at once
			}
			running[j.Queue] = true
			mu.Unlock()
			time.Sleep(time.Millisecond) // a little work, so overlaps would show
			mu.Lock()
			defer mu.Unlock()
			running[j.Queue] = false
			n, _ := strconv.Atoi(string(j.Payload))
			if n == 4 && !failed[j.Queue] {
				failed[j.Queue] = true // the queue's head backs off; the rest waits
				return errors.New("try again")
			}
			order[j.Queue] = append(order[j.Queue], n)
			return nil
		}
		// Interleaved across queues, in order within each.
		for i := range perQueue {
			for q := range queues {
				jobsEnqueue(t, a, ports.NewJob{Kind: "test.ordered", Queue: fmt.Sprintf("hook:%d", q), Payload: []byte(strconv.Itoa(i))})
			}
		}
		opts := jobsQuick
		opts.Concurrency = 8
		for name, d := range map[string]*sqlstore.DB{"a": a, "b": b} {
			r := jobsRunner(t, d, name)
			r.Handle("test.ordered", opts, handler)
			testkit.Go(t, r.Run)
		}
		testkit.Eventually(t, "all jobs to run", func() bool {
			mu.Lock()
			defer mu.Unlock()
			n := 0
			for _, o := range order {
				n += len(o)
			}
			return n == queues*perQueue
		})
		mu.Lock()
		defer mu.Unlock()
		want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		for q := range queues {
			is.Equal(order[fmt.Sprintf("hook:%d", q)], want)
		}
		is.Equal(overlaps.Load(), int32(0))
	})
}

// The server runs its runner for its whole life: work queued through its
// database is done without anyone calling Run by hand.
func TestJobsServerWorksTheQueue(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		got := make(chan string, 1)
		srv.App.Jobs.Handle("test.server", jobsQuick, func(_ context.Context, j *ports.Job) error {
			got <- string(j.Payload)
			return nil
		})
		jobsEnqueue(t, srv.App.DB, ports.NewJob{Kind: "test.server", Payload: []byte("hello")})
		srv.App.Jobs.Notify()
		select {
		case p := <-got:
			is.Equal(p, "hello")
		case <-time.After(30 * time.Second):
			t.Fatal("the server's runner never ran the job")
		}
	})
}
