package test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
)

// jobsLog is a log a runner writes while a test reads it.
type jobsLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *jobsLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// lines returns the lines at level (DEBUG, WARN, ERROR …) that mention msg.
func (l *jobsLog) lines(level, msg string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for line := range strings.SplitSeq(l.buf.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, msg) {
			out = append(out, line)
		}
	}
	return out
}

// txBody is the body of a transaction, as InTx runs it.
type txBody = func(ctx context.Context, tx ports.Stores) error

// holdTx holds a transaction open while the test goes on, as a long write
// (or a stuck one) does. begin starts the transaction around the body
// holdTx gives it, which writes (so that on Postgres too the transaction
// holds something) and waits; holdTx returns once the transaction holds.
// release ends it and checks that it committed; it is safe to call twice
// and runs at the test's end at the latest.
//
// begin is the caller's own call of InTx, such as
//
//	func(body txBody) error { return d.InTx(context.Background(), body) }
//
// written in the test, because SQLite names the function that began a
// transaction as what holds its writer, and the tests look for their own
// name there.
func holdTx(t *testing.T, begin func(body txBody) error) (release func()) {
	t.Helper()
	held, done := make(chan struct{}), make(chan struct{})
	txDone := make(chan error, 1)
	go func() {
		txDone <- begin(func(ctx context.Context, tx ports.Stores) error {
			if _, err := tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: "test.other"}); err != nil {
				return err
			}
			close(held)
			<-done
			return nil
		})
	}()
	select {
	case <-held:
	case err := <-txDone:
		t.Fatalf("the transaction to hold ended early: %v", err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			close(done)
			if err := <-txDone; err != nil {
				t.Fatalf("the held transaction: %v", err)
			}
		}
	}
	t.Cleanup(release)
	return release
}

// TestJobsClaimBehindALongTransaction holds a transaction open while the
// runner claims, as a long write (or a stuck one) does. On SQLite the claim
// needs the one writer: it waits a bounded time, says what it waited behind,
// tries again quietly (a warning only once it keeps happening), never logs
// an error, and the job runs once the transaction ends. On Postgres the
// claim runs beside the transaction.
func TestJobsClaimBehindALongTransaction(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		d := jobsOpen(t, cfg)
		id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.after", Payload: []byte("x")})

		releaseTx := holdTx(t, func(body txBody) error { return d.InTx(context.Background(), body) })

		logs := &jobsLog{}
		log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		const wait = 200 * time.Millisecond
		r := jobs.NewRunnerWith(d.Stores().Jobs, security.SystemClock{}, log,
			jobs.RunnerOptions{Owner: "p", Poll: 20 * time.Millisecond, Grace: 100 * time.Millisecond, ClaimWait: wait})
		r.Handle("test.after", jobsQuick, func(context.Context, *ports.Job) error { return nil })
		testkit.Go(t, r.Run)

		if d.Dialect() == sqlstore.DialectPostgres {
			testkit.Eventually(t, "the job to run beside the transaction", func() bool {
				return jobsState(t, d, id) == "done"
			})
			releaseTx()
			is.Equal(len(logs.lines("ERROR", "")), 0)
			return
		}

		// The first claims that run out are debug lines naming what held the
		// writer: this test's transaction.
		testkit.Eventually(t, "a claim to run out of time", func() bool {
			return len(logs.lines("DEBUG", "a claim waited too long for the database")) > 0
		})
		first := logs.lines("DEBUG", "a claim waited too long for the database")[0]
		t.Logf("the claim's log line: %s", first)
		is.True(strings.Contains(first, "context deadline exceeded"))
		is.True(strings.Contains(first, "TestJobsClaimBehindALongTransaction")) // the holder, named
		is.True(strings.Contains(first, "SQLite writer"))
		// Claims that keep running out warn.
		testkit.Eventually(t, "the runner to warn", func() bool {
			return len(logs.lines("WARN", "claims keep waiting too long")) > 0
		})
		is.Equal(jobsState(t, d, id), ports.JobPending) // untouched meanwhile

		releaseTx()
		testkit.Eventually(t, "the job to run once the writer is free", func() bool {
			return jobsState(t, d, id) == "done"
		})
		is.Equal(len(logs.lines("ERROR", "")), 0) // waiting is not an error
	})
}

// TestJobsClaimBehindAnotherProcessesWriteLock: on SQLite another process
// (a second server, the admin commands) can hold the file's write lock, and
// a claim then waits for SQLite's busy_timeout (5 s) rather than for the
// claim's own deadline. That wait running out is the same kind of event: a
// quiet retry naming its cause, not an error, and the job runs once the
// lock is free. (Postgres claims beside other transactions, see above.)
func TestJobsClaimBehindAnotherProcessesWriteLock(t *testing.T) {
	is := is.New(t)
	cfg := sqlstore.Config{DataDir: t.TempDir()}
	other, d := jobsOpen(t, cfg), jobsOpen(t, cfg)
	id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.after", Payload: []byte("x")})

	releaseTx := holdTx(t, func(body txBody) error { return other.InTx(context.Background(), body) })

	logs := &jobsLog{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r := jobs.NewRunnerWith(d.Stores().Jobs, security.SystemClock{}, log,
		jobs.RunnerOptions{Owner: "p", Poll: 20 * time.Millisecond, Grace: 100 * time.Millisecond, ClaimWait: 20 * time.Second})
	r.Handle("test.after", jobsQuick, func(context.Context, *ports.Job) error { return nil })
	testkit.Go(t, r.Run)

	testkit.Eventually(t, "a claim to give up on the lock", func() bool {
		return len(logs.lines("DEBUG", "a claim waited too long for the database")) > 0
	})
	line := logs.lines("DEBUG", "a claim waited too long for the database")[0]
	t.Logf("the claim's log line: %s", line)
	is.True(strings.Contains(line, "locked by another process past busy_timeout"))
	is.Equal(jobsState(t, d, id), ports.JobPending)

	releaseTx()
	testkit.Eventually(t, "the job to run once the lock is free", func() bool {
		return jobsState(t, d, id) == "done"
	})
	is.Equal(len(logs.lines("ERROR", "")), 0)
}

// TestJobsOutcomeBehindALongTransaction: recording a job's outcome waits
// for SQLite's writer in the queue of grouped writes; a caller whose
// deadline ends there gets a wait error naming the holder, and its write
// never runs (the job stays leased, to be settled again or taken over).
// On Postgres the write runs beside the transaction.
func TestJobsOutcomeBehindALongTransaction(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		d := jobsOpen(t, cfg)
		id := jobsEnqueue(t, d, ports.NewJob{Kind: "test.outcome"})
		js, err := d.Stores().Jobs.Claim(t.Context(), "p/1", []string{"test.outcome"}, time.Now(), time.Minute, 1)
		is.NoErr(err)
		is.Equal(len(js), 1)

		releaseTx := holdTx(t, func(body txBody) error { return d.InTx(context.Background(), body) })

		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		err = d.Stores().Jobs.Complete(ctx, id, "p/1")
		if d.Dialect() == sqlstore.DialectPostgres {
			is.NoErr(err) // beside the transaction
			releaseTx()
			is.Equal(jobsState(t, d, id), ports.JobState("done"))
			return
		}
		is.True(errors.Is(err, context.DeadlineExceeded))
		is.True(time.Since(start) < 10*time.Second)                                     // bounded by the caller, not by the transaction
		is.True(strings.Contains(err.Error(), "TestJobsOutcomeBehindALongTransaction")) // what held the writer
		releaseTx()
		is.Equal(jobsState(t, d, id), ports.JobRunning) // the given-up write never ran
		is.NoErr(d.Stores().Jobs.Complete(t.Context(), id, "p/1"))
		is.Equal(jobsState(t, d, id), ports.JobState("done"))
	})
}
