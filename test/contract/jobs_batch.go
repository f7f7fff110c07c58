package contract

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// The batch half of the JobStore contract (ClaimBatches, Settle) joins
// jobTests, so every implementation that runs the job contract runs it.
func init() {
	for name, test := range jobBatchTests {
		jobTests[name] = test
	}
}

// jobBatches claims batches with the contract's lease and returns their ids.
func (f *fixture) jobBatches(owner string, kinds []string, now time.Time, limit, batch int) [][]int64 {
	f.t.Helper()
	bs, err := f.Jobs.ClaimBatches(f.ctx, owner, kinds, now, jobLease, limit, batch)
	if err != nil {
		f.t.Fatalf("claim batches: %v", err)
	}
	out := make([][]int64, 0, len(bs))
	for _, b := range bs {
		out = append(out, ids(b, func(j *ports.Job) int64 { return j.ID }))
	}
	return out
}

func (f *fixture) jobEnqueueN(n int, nj ports.NewJob) []int64 {
	f.t.Helper()
	out := make([]int64, n)
	for i := range out {
		out[i] = f.jobEnqueue(nj)
	}
	return out
}

func completeAll(owner string, ids ...int64) []ports.JobOutcome {
	out := make([]ports.JobOutcome, len(ids))
	for i, id := range ids {
		out[i] = ports.JobOutcome{ID: id, Kind: ports.JobComplete}
	}
	return out
}

var jobBatchTests = map[string]func(t *testing.T, f *fixture){
	"BatchTakesTheNextJobsOfEachQueue": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueueN(5, ports.NewJob{Kind: "a", Queue: "hook:1", RunAt: at(1)})
		b := f.jobEnqueueN(2, ports.NewJob{Kind: "a", Queue: "hook:2", RunAt: at(1)})
		free := f.jobEnqueueN(2, ports.NewJob{Kind: "a", RunAt: at(1)})

		is.Equal(len(f.jobBatches("w", jobKindA, at(1), 0, 3)), 0) // a zero limit claims nothing
		got, err := f.Jobs.ClaimBatches(f.ctx, "w", jobKindA, at(1), jobLease, 3, 3)
		is.NoErr(err)
		is.Equal(len(got), 3) // limit counts batches, not jobs
		is.Equal(ids(got[0], func(j *ports.Job) int64 { return j.ID }), a[:3])
		is.Equal(ids(got[1], func(j *ports.Job) int64 { return j.ID }), b)
		is.Equal(ids(got[2], func(j *ports.Job) int64 { return j.ID }), free[:1]) // unqueued jobs come alone
		for _, bt := range got {
			for _, j := range bt {
				is.Equal(j.Attempts, 1)
				is.Equal(f.jobState(j.ID), ports.JobRunning)
			}
		}
		// hook:1 is held by the batch; the other free job is still due.
		is.Equal(f.jobBatches("w2", jobKindA, at(1), 10, 3), [][]int64{free[1:]})
		is.NoErr(f.Jobs.Settle(f.ctx, "w", completeAll("w", a[:3]...)))
		is.Equal(f.jobBatches("w2", jobKindA, at(1), 10, 0), [][]int64{a[3:4]}) // a batch of 0 is of 1
	},
	"BatchStopsAtAJobItMayNotTake": func(t *testing.T, f *fixture) {
		is := is.New(t)
		x1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "x", RunAt: at(1)})
		x2 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "x", RunAt: at(1)})
		f.jobEnqueue(ports.NewJob{Kind: "b", Queue: "x", RunAt: at(1)}) // another kind
		f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "x", RunAt: at(1)})
		y1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "y", RunAt: at(1)})
		f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "y", RunAt: at(9)}) // not due yet
		f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "y", RunAt: at(1)})
		z := f.jobEnqueueN(3, ports.NewJob{Kind: "a", Queue: "z", RunAt: at(1)})
		is.Equal(f.jobBatches("w", jobKindA, at(1), 1, 1), [][]int64{{x1}})
		is.NoErr(f.Jobs.Settle(f.ctx, "w", []ports.JobOutcome{{ID: x1, Kind: ports.JobRelease}}))
		is.Equal(f.jobBatches("w", []string{"zz"}, at(1), 10, 10), [][]int64{}) // no kinds of theirs
		claimed, err := f.Jobs.ClaimBatches(f.ctx, "w", jobKindA, at(1), jobLease, 10, 10)
		is.NoErr(err)
		is.Equal(len(claimed), 3)
		is.Equal(ids(claimed[0], func(j *ports.Job) int64 { return j.ID }), []int64{x1, x2})
		is.Equal(claimed[0][0].Attempts, 1) // the release undid the first claim's count
		is.Equal(ids(claimed[1], func(j *ports.Job) int64 { return j.ID }), []int64{y1})
		is.Equal(ids(claimed[2], func(j *ports.Job) int64 { return j.ID }), z)
	},
	"SettleRecordsEveryOutcomeOfABatch": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueueN(5, ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobBatches("w", jobKindA, at(1), 1, 5), [][]int64{a})
		is.NoErr(f.Jobs.Settle(f.ctx, "w", nil))
		is.NoErr(f.Jobs.Settle(f.ctx, "w", []ports.JobOutcome{
			{ID: a[0], Kind: ports.JobComplete},
			{ID: a[1], Kind: ports.JobFail, LastError: "410 Gone"},
			{ID: a[2], Kind: ports.JobRetry, RunAt: at(20), LastError: "503"},
			{ID: a[3], Kind: ports.JobRelease},
			{ID: a[4], Kind: ports.JobRelease},
		}))
		_, _, err := f.Jobs.Get(f.ctx, a[0])
		isCategory(is, err, errs.ErrNotFound, "job not found")
		j, st, err := f.Jobs.Get(f.ctx, a[1])
		is.NoErr(err)
		is.Equal(st, ports.JobFailed)
		is.Equal(j.LastError, "410 Gone")
		j, st, err = f.Jobs.Get(f.ctx, a[2])
		is.NoErr(err)
		is.Equal(st, ports.JobPending)
		is.True(j.RunAt.Equal(at(20)))
		is.Equal(j.LastError, "503")
		is.Equal(j.Attempts, 1)
		for _, id := range a[3:] {
			j, st, err = f.Jobs.Get(f.ctx, id)
			is.NoErr(err)
			is.Equal(st, ports.JobPending)
			is.Equal(j.Attempts, 0) // released unrun: uncounted
			is.True(j.RunAt.Equal(at(1)))
		}
		// The released jobs wait behind the one backing off.
		is.Equal(len(f.jobBatches("w", jobKindA, at(10), 10, 5)), 0)
		got, err := f.Jobs.ClaimBatches(f.ctx, "w2", jobKindA, at(20), jobLease, 10, 5)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(ids(got[0], func(j *ports.Job) int64 { return j.ID }), a[2:])
		is.Equal(got[0][0].Attempts, 2)
		is.Equal(got[0][1].Attempts, 1)
	},
	"SettleActsOnlyUnderTheOwnersLease": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueueN(3, ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobBatches("w", jobKindA, at(1), 1, 3), [][]int64{a})
		isCategory(is, f.Jobs.Settle(f.ctx, "other", completeAll("other", a...)), errs.ErrConflict,
			"job is not leased to this owner")
		for _, id := range a {
			is.Equal(f.jobState(id), ports.JobRunning) // untouched
		}
		// One outcome that no longer counts does not undo the others.
		err := f.Jobs.Settle(f.ctx, "w", []ports.JobOutcome{{ID: a[0], Kind: ports.JobComplete},
			{ID: 424242, Kind: ports.JobComplete}, {ID: a[1], Kind: ports.JobRelease}})
		isCategory(is, err, errs.ErrConflict, "job is not leased to this owner")
		_, _, err = f.Jobs.Get(f.ctx, a[0])
		isCategory(is, err, errs.ErrNotFound, "job not found")
		is.Equal(f.jobState(a[1]), ports.JobPending)
		is.Equal(f.jobState(a[2]), ports.JobRunning)
		// Settling twice: the second no longer counts.
		isCategory(is, f.Jobs.Settle(f.ctx, "w", completeAll("w", a[0])), errs.ErrConflict,
			"job is not leased to this owner")
	},
	"AnExpiredBatchIsClaimedAgainWhole": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueueN(4, ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobBatches("dead", jobKindA, at(1), 1, 3), [][]int64{a[:3]}) // leased until at(2)
		is.Equal(len(f.jobBatches("alive", jobKindA, at(1).Add(59*time.Second), 10, 10)), 0)

		got, err := f.Jobs.ClaimBatches(f.ctx, "alive", jobKindA, at(2), jobLease, 10, 10)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(ids(got[0], func(j *ports.Job) int64 { return j.ID }), a)
		is.Equal([]int{got[0][0].Attempts, got[0][2].Attempts, got[0][3].Attempts}, []int{2, 2, 1})
		// The dead worker's late outcomes no longer count.
		isCategory(is, f.Jobs.Settle(f.ctx, "dead", completeAll("dead", a[:3]...)), errs.ErrConflict,
			"job is not leased to this owner")
		is.NoErr(f.Jobs.Settle(f.ctx, "alive", completeAll("alive", a...)))
	},
	"ConcurrentBatchClaimersKeepEachQueuesOrder": func(t *testing.T, f *fixture) {
		is := is.New(t)
		const jobs, claimers, queues = 240, 6, 4
		for i := range jobs {
			q := ""
			if i%4 != 0 {
				q = fmt.Sprintf("q%d", i%queues)
			}
			f.jobEnqueue(ports.NewJob{Kind: "a", Queue: q, RunAt: at(1)})
		}
		var mu sync.Mutex
		claimed := map[int64]int{}
		lastOfQueue := map[string]int64{}
		errc := make(chan error, claimers)
		deadline := time.Now().Add(30 * time.Second)
		var wg sync.WaitGroup
		for w := range claimers {
			owner := fmt.Sprintf("w%d", w)
			wg.Go(func() {
				for time.Now().Before(deadline) {
					bs, err := f.Jobs.ClaimBatches(f.ctx, owner, jobKindA, at(2), jobLease, 2, 7)
					if err != nil {
						errc <- err
						return
					}
					mu.Lock()
					var outs []ports.JobOutcome
					for _, b := range bs {
						for k, j := range b {
							claimed[j.ID]++
							if j.Queue != "" && j.ID <= lastOfQueue[j.Queue] {
								mu.Unlock()
								errc <- fmt.Errorf("queue %s ran %d after %d", j.Queue, j.ID, lastOfQueue[j.Queue])
								return
							}
							if j.Queue != "" {
								lastOfQueue[j.Queue] = j.ID
							}
							if k > 0 && j.Queue != b[0].Queue {
								mu.Unlock()
								errc <- fmt.Errorf("batch of %s holds %d of %s", b[0].Queue, j.ID, j.Queue)
								return
							}
							outs = append(outs, ports.JobOutcome{ID: j.ID, Kind: ports.JobComplete})
						}
					}
					done := len(claimed) == jobs
					mu.Unlock()
					if err := f.Jobs.Settle(f.ctx, owner, outs); err != nil {
						errc <- err
						return
					}
					if done {
						return
					}
				}
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			is.NoErr(err)
		}
		is.Equal(len(claimed), jobs)
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("job %d claimed %d times", id, n)
			}
		}
	},
}
