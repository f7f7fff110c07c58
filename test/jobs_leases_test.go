package test

import (
	"context"
	"fmt"
	"log/slog"
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

// jobsLongLease is far longer than any of these tests may take: a job that
// runs in them ran because its lease was taken back, not because it ran out.
var jobsLongLease = jobs.KindOptions{Lease: 10 * time.Minute, Backoff: func(int) time.Duration { return time.Second }}

// TestJobsRestartedNodeTakesBackItsLeasesAtOnce plays a crash: one
// instance of a node claims jobs under a ten-minute lease and dies without
// settling them; the node's next instance runs them at once, the same jobs
// with the same payloads (a webhook delivery keeps its id), while the
// leases of other nodes, which may be alive, are left to them.
func TestJobsRestartedNodeTakesBackItsLeasesAtOnce(t *testing.T) {
	jobsBackends(t, func(t *testing.T, cfg sqlstore.Config) {
		is := is.New(t)
		const kind = "test.deliver"
		crashed := jobsOpen(t, cfg)
		held := map[int64]string{}
		for i := range 3 {
			payload := fmt.Sprintf(`{"delivery":"d-%d"}`, i)
			held[jobsEnqueue(t, crashed, ports.NewJob{Kind: kind, Queue: "hook-1", Payload: []byte(payload)})] = payload
		}
		other := jobsEnqueue(t, crashed, ports.NewJob{Kind: kind, Payload: []byte(`{"delivery":"other"}`)})
		// The crashed instance of node-a took the queue as one batch, as the
		// runner names its leases (node/instance/claim); node-b, another
		// server on the database, took the other job and is still running.
		bs, err := crashed.Stores().Jobs.ClaimBatches(t.Context(), "node-a/runner-crashed/1", []string{kind},
			time.Now(), jobsLongLease.Lease, 1, 10)
		is.NoErr(err)
		is.Equal(len(bs), 1)
		is.Equal(len(bs[0]), 3)
		js, err := crashed.Stores().Jobs.Claim(t.Context(), "node-b/runner-alive/1", []string{kind},
			time.Now(), jobsLongLease.Lease, 1)
		is.NoErr(err)
		is.Equal(len(js), 1)
		is.NoErr(crashed.Close()) // died without settling

		restarted := jobsOpen(t, cfg)
		log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
		r := jobs.NewRunnerWith(restarted.Stores().Jobs, security.SystemClock{}, log,
			jobs.RunnerOptions{Poll: time.Minute, Grace: 100 * time.Millisecond})
		var mu sync.Mutex
		ran := map[int64]*ports.Job{}
		opts := jobsLongLease
		opts.Batch = 10
		r.Handle(kind, opts, func(_ context.Context, j *ports.Job) error {
			mu.Lock()
			defer mu.Unlock()
			ran[j.ID] = j
			return nil
		})
		started := time.Now()
		// The poll is a minute: the jobs must be found by the first claim,
		// which Run makes right after taking the leases back.
		testkit.Go(t, func(ctx context.Context) { r.RunAs(ctx, "node-a") })
		for id := range held {
			testkit.Eventually(t, "the crashed instance's job to be done", func() bool {
				return jobsState(t, restarted, id) == "done"
			})
		}
		is.True(time.Since(started) < time.Minute) // long before the ten-minute leases end

		mu.Lock()
		defer mu.Unlock()
		is.Equal(len(ran), 3)
		for id, payload := range held {
			j := ran[id]
			is.True(j != nil)
			is.Equal(string(j.Payload), payload) // the same delivery, so receivers can de-duplicate
			is.Equal(j.Attempts, 2)              // the crashed run counted
		}
		_, ranOther := ran[other]
		is.True(!ranOther)                                         // node-b's lease is node-b's
		is.Equal(jobsState(t, restarted, other), ports.JobRunning) // until it ends
	})
}
