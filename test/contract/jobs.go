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

// RunJobSuite runs the JobStore contract alone, for implementations that are
// not part of a whole ports.Stores (the job runner's in-memory fake). open
// must give each call a fresh, empty queue.
func RunJobSuite(t *testing.T, open func(t *testing.T) ports.JobStore) {
	t.Helper()
	for name, test := range jobTests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, &fixture{t: t, ctx: t.Context(), Stores: ports.Stores{Jobs: open(t)}})
		})
	}
}

// jobLease is the lease the contract claims with; times are at(minute).
const jobLease = time.Minute

func (f *fixture) jobEnqueue(nj ports.NewJob) int64 {
	f.t.Helper()
	id, err := f.Jobs.Enqueue(f.ctx, nj)
	if err != nil {
		f.t.Fatalf("enqueue %+v: %v", nj, err)
	}
	if id == 0 {
		f.t.Fatalf("enqueue %+v: no id", nj)
	}
	return id
}

// jobClaim claims with the contract's lease and returns the claimed ids.
func (f *fixture) jobClaim(owner string, kinds []string, now time.Time, limit int) []int64 {
	f.t.Helper()
	js, err := f.Jobs.Claim(f.ctx, owner, kinds, now, jobLease, limit)
	if err != nil {
		f.t.Fatalf("claim: %v", err)
	}
	return ids(js, func(j *ports.Job) int64 { return j.ID })
}

func (f *fixture) jobState(id int64) ports.JobState {
	f.t.Helper()
	_, st, err := f.Jobs.Get(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get job %d: %v", id, err)
	}
	return st
}

var jobKindA = []string{"a"}

// jobTests is the contract of JobStore.
var jobTests = map[string]func(t *testing.T, f *fixture){
	"EnqueueClaimComplete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		payload := []byte{0, 1, 2, 0xff, '{', '}'}
		id := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", Dedup: "d", Payload: payload, RunAt: at(1)})

		j, st, err := f.Jobs.Get(f.ctx, id)
		is.NoErr(err)
		is.Equal(st, ports.JobPending)
		is.Equal(j.ID, id)
		is.Equal(j.Kind, "a")
		is.Equal(j.Queue, "q")
		is.Equal(j.Dedup, "d")
		is.Equal(j.Payload, payload) // bytes round-trip, NUL included
		is.Equal(j.Attempts, 0)
		is.True(j.RunAt.Equal(at(1)))
		is.True(!j.Created.IsZero())

		got, err := f.Jobs.Claim(f.ctx, "w1", jobKindA, at(2), jobLease, 10)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].ID, id)
		is.Equal(got[0].Attempts, 1) // the claimed run counts
		is.Equal(got[0].Payload, payload)
		is.Equal(f.jobState(id), ports.JobRunning)

		is.NoErr(f.Jobs.Complete(f.ctx, id, "w1"))
		_, _, err = f.Jobs.Get(f.ctx, id)
		isCategory(is, err, errs.ErrNotFound, "job not found") // finished jobs are gone
		is.Equal(len(f.jobClaim("w1", jobKindA, at(9), 10)), 0)
	},
	"EnqueueWithoutRunAtIsDueNow": func(t *testing.T, f *fixture) {
		is := is.New(t)
		before := time.Now().Add(-time.Second)
		id := f.jobEnqueue(ports.NewJob{Kind: "a"})
		j, _, err := f.Jobs.Get(f.ctx, id)
		is.NoErr(err)
		is.True(!j.RunAt.Before(before))
		is.True(!j.RunAt.After(time.Now().Add(time.Second)))
		is.Equal(j.Payload, []byte{}) // nil payload reads back empty
		is.Equal(f.jobClaim("w", jobKindA, time.Now().Add(time.Second), 1), []int64{id})
	},
	"GetMissing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		_, _, err := f.Jobs.Get(f.ctx, 424242)
		isCategory(is, err, errs.ErrNotFound, "job not found")
	},
	"OnlyDueJobsAreClaimed": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(5)})
		is.Equal(len(f.jobClaim("w", jobKindA, at(4), 10)), 0) // not yet due
		is.Equal(f.jobClaim("w", jobKindA, at(5), 10), []int64{id})
	},
	"RetryMakesItPendingAgainAtRunAt": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{id})
		is.NoErr(f.Jobs.Retry(f.ctx, id, "w", at(10), "connection refused"))

		j, st, err := f.Jobs.Get(f.ctx, id)
		is.NoErr(err)
		is.Equal(st, ports.JobPending)
		is.Equal(j.LastError, "connection refused")
		is.True(j.RunAt.Equal(at(10)))
		is.Equal(j.Attempts, 1)

		is.Equal(len(f.jobClaim("w", jobKindA, at(9), 1)), 0) // backing off
		got, err := f.Jobs.Claim(f.ctx, "w2", jobKindA, at(10), jobLease, 1)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].Attempts, 2)
		is.Equal(got[0].LastError, "connection refused")
	},
	"FailKeepsTheJobAndNeverRunsItAgain": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{id})
		is.NoErr(f.Jobs.Fail(f.ctx, id, "w", "404 Not Found"))

		j, st, err := f.Jobs.Get(f.ctx, id)
		is.NoErr(err)
		is.Equal(st, ports.JobFailed)
		is.Equal(j.LastError, "404 Not Found")
		is.Equal(len(f.jobClaim("w", jobKindA, at(59), 10)), 0)
	},
	"OnlyTheLeaseOwnerSettlesAJob": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		// Not claimed yet: nobody holds it.
		isCategory(is, f.Jobs.Complete(f.ctx, id, "w"), errs.ErrConflict, "job is not leased to this owner")
		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{id})
		isCategory(is, f.Jobs.Complete(f.ctx, id, "other"), errs.ErrConflict, "job is not leased to this owner")
		isCategory(is, f.Jobs.Retry(f.ctx, id, "other", at(2), "x"), errs.ErrConflict, "job is not leased to this owner")
		isCategory(is, f.Jobs.Fail(f.ctx, id, "other", "x"), errs.ErrConflict, "job is not leased to this owner")
		is.Equal(f.jobState(id), ports.JobRunning) // untouched by the others

		is.NoErr(f.Jobs.Complete(f.ctx, id, "w"))
		isCategory(is, f.Jobs.Complete(f.ctx, id, "w"), errs.ErrConflict, "job is not leased to this owner")
		isCategory(is, f.Jobs.Retry(f.ctx, id, "w", at(2), "x"), errs.ErrConflict, "job is not leased to this owner")
	},
	"ReleaseGivesAJobBackUncounted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		a2 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{a1})
		isCategory(is, f.Jobs.Release(f.ctx, a1, "other"), errs.ErrConflict, "job is not leased to this owner")
		is.NoErr(f.Jobs.Release(f.ctx, a1, "w"))

		j, st, err := f.Jobs.Get(f.ctx, a1)
		is.NoErr(err)
		is.Equal(st, ports.JobPending)
		is.Equal(j.Attempts, 0)
		is.True(j.RunAt.Equal(at(1)))
		isCategory(is, f.Jobs.Release(f.ctx, a1, "w"), errs.ErrConflict, "job is not leased to this owner")
		// Still its queue's head, due at once.
		got, err := f.Jobs.Claim(f.ctx, "w2", jobKindA, at(1), jobLease, 10)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].ID, a1)
		is.Equal(got[0].Attempts, 1)
		is.True(a2 != a1)
	},
	"AnExpiredLeaseIsClaimedAgain": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		is.Equal(f.jobClaim("dead", jobKindA, at(1), 1), []int64{id}) // leased until at(2)
		is.Equal(len(f.jobClaim("alive", jobKindA, at(1).Add(59*time.Second), 1)), 0)

		got, err := f.Jobs.Claim(f.ctx, "alive", jobKindA, at(2), jobLease, 1)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].ID, id)
		is.Equal(got[0].Attempts, 2) // the dead worker's run counted
		// The dead worker's late outcome no longer counts.
		isCategory(is, f.Jobs.Complete(f.ctx, id, "dead"), errs.ErrConflict, "job is not leased to this owner")
		is.NoErr(f.Jobs.Complete(f.ctx, id, "alive"))
	},
	"DedupKeepsOneUnfinishedJobPerKindAndKey": func(t *testing.T, f *fixture) {
		is := is.New(t)
		first := f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:1", RunAt: at(1)})
		is.Equal(f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:1", RunAt: at(3)}), first)
		is.True(f.jobEnqueue(ports.NewJob{Kind: "b", Dedup: "mirror:1", RunAt: at(1)}) != first) // per kind
		is.True(f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:2", RunAt: at(9)}) != first)
		// Without a key every Enqueue adds a job.
		is.True(f.jobEnqueue(ports.NewJob{Kind: "b", RunAt: at(1)}) != f.jobEnqueue(ports.NewJob{Kind: "b", RunAt: at(1)}))

		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{first})
		is.Equal(f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:1"}), first) // running still holds the key
		is.NoErr(f.Jobs.Complete(f.ctx, first, "w"))

		second := f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:1", RunAt: at(5)})
		is.True(second != first) // a finished job frees the key
		is.Equal(f.jobClaim("w", jobKindA, at(5), 10), []int64{second})
		is.NoErr(f.Jobs.Fail(f.ctx, second, "w", "boom"))
		third := f.jobEnqueue(ports.NewJob{Kind: "a", Dedup: "mirror:1", RunAt: at(5)})
		is.True(third != second) // so does a failed one
	},
	"ReleaseDedupLetsARunningJobBeFollowed": func(t *testing.T, f *fixture) {
		is := is.New(t)
		first := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "pull:1", Dedup: "pull:1", RunAt: at(1)})
		is.NoErr(f.Jobs.ReleaseDedup(f.ctx, first)) // pending: unchanged
		is.Equal(f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "pull:1", Dedup: "pull:1"}), first)
		is.Equal(f.jobClaim("w", jobKindA, at(1), 1), []int64{first})
		is.NoErr(f.Jobs.ReleaseDedup(f.ctx, first))
		second := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "pull:1", Dedup: "pull:1", RunAt: at(1)})
		is.True(second != first)                                                                  // the running job no longer holds the key
		is.Equal(f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "pull:1", Dedup: "pull:1"}), second) // the new one does
		is.Equal(len(f.jobClaim("w2", jobKindA, at(1), 10)), 0)                                   // and waits for the first in their queue
		is.NoErr(f.Jobs.Complete(f.ctx, first, "w"))
		is.Equal(f.jobClaim("w2", jobKindA, at(1), 10), []int64{second})
	},
	"ConcurrentEnqueuesOfOneKeyAddOneJob": func(t *testing.T, f *fixture) {
		is := is.New(t)
		const n = 8
		got := make([]int64, n)
		errc := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { got[i], errc[i] = f.Jobs.Enqueue(f.ctx, ports.NewJob{Kind: "a", Dedup: "k"}) })
		}
		wg.Wait()
		for i := range n {
			is.NoErr(errc[i])
			is.Equal(got[i], got[0])
		}
		is.Equal(len(f.jobClaim("w", jobKindA, time.Now().Add(time.Second), 10)), 1)
	},
	"AQueueRunsOneJobAtATimeInOrder": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "hook:1", RunAt: at(1)})
		a2 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "hook:1", RunAt: at(1)})
		a3 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "hook:1", RunAt: at(1)})
		b1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "hook:2", RunAt: at(1)})
		free := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})

		is.Equal(f.jobClaim("w", jobKindA, at(1), 10), []int64{a1, b1, free}) // one per queue
		is.Equal(len(f.jobClaim("w", jobKindA, at(1), 10)), 0)                // a2 waits while a1 runs
		is.NoErr(f.Jobs.Complete(f.ctx, b1, "w"))
		is.NoErr(f.Jobs.Complete(f.ctx, free, "w"))

		is.NoErr(f.Jobs.Retry(f.ctx, a1, "w", at(20), "503"))
		is.Equal(len(f.jobClaim("w", jobKindA, at(10), 10)), 0) // ... and while a1 backs off
		is.Equal(f.jobClaim("w", jobKindA, at(20), 10), []int64{a1})

		is.NoErr(f.Jobs.Complete(f.ctx, a1, "w"))
		is.Equal(f.jobClaim("w", jobKindA, at(20), 10), []int64{a2}) // finishing frees the next
		is.NoErr(f.Jobs.Fail(f.ctx, a2, "w", "gave up"))
		is.Equal(f.jobClaim("w", jobKindA, at(20), 10), []int64{a3}) // so does failing
	},
	"AQueueWaitsForItsHeadsExpiredLease": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a1 := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobClaim("dead", jobKindA, at(1), 1), []int64{a1})
		// The head is re-run before anything behind it.
		is.Equal(f.jobClaim("alive", jobKindA, at(3), 10), []int64{a1})
	},
	"AQueueSpansKinds": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		b := f.jobEnqueue(ports.NewJob{Kind: "b", Queue: "q", RunAt: at(1)})
		is.Equal(len(f.jobClaim("w", []string{"b"}, at(1), 10)), 0) // behind an unfinished "a"
		is.Equal(f.jobClaim("w", jobKindA, at(1), 10), []int64{a})
		is.NoErr(f.Jobs.Complete(f.ctx, a, "w"))
		is.Equal(f.jobClaim("w", []string{"b"}, at(1), 10), []int64{b})
	},
	"ClaimFiltersByKind": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		b := f.jobEnqueue(ports.NewJob{Kind: "b", RunAt: at(1)})
		c := f.jobEnqueue(ports.NewJob{Kind: "c", RunAt: at(1)})
		is.Equal(len(f.jobClaim("w", nil, at(1), 10)), 0) // no kinds, no jobs
		is.Equal(f.jobClaim("w", []string{"b"}, at(1), 10), []int64{b})
		is.Equal(f.jobClaim("w", []string{"a", "c"}, at(1), 10), []int64{a, c})
	},
	"ClaimTakesTheEarliestDueUpToLimit": func(t *testing.T, f *fixture) {
		is := is.New(t)
		late := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(3)})
		var early []int64
		for range 4 {
			early = append(early, f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)}))
		}
		is.Equal(len(f.jobClaim("w", jobKindA, at(5), 0)), 0) // a zero limit claims nothing
		is.Equal(f.jobClaim("w", jobKindA, at(5), 2), early[:2])
		is.Equal(f.jobClaim("w", jobKindA, at(5), 3), []int64{early[2], early[3], late})
		is.Equal(len(f.jobClaim("w", jobKindA, at(5), 3)), 0)
	},
	"ConcurrentClaimersNeverShareAJob": func(t *testing.T, f *fixture) {
		is := is.New(t)
		const jobs, claimers = 200, 8
		queueOf := func(i int) string {
			if i%5 == 0 {
				return fmt.Sprintf("q%d", i%3) // some queued jobs, to mix in the ordering check
			}
			return ""
		}
		for i := range jobs {
			f.jobEnqueue(ports.NewJob{Kind: "a", Queue: queueOf(i), RunAt: at(1)})
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
					js, err := f.Jobs.Claim(f.ctx, owner, jobKindA, at(2), jobLease, 3)
					if err != nil {
						errc <- err
						return
					}
					mu.Lock()
					for _, j := range js {
						claimed[j.ID]++
						if j.Queue != "" && j.ID < lastOfQueue[j.Queue] {
							mu.Unlock()
							errc <- fmt.Errorf("queue %s ran %d after %d", j.Queue, j.ID, lastOfQueue[j.Queue])
							return
						}
						lastOfQueue[j.Queue] = j.ID
					}
					done := len(claimed) == jobs
					mu.Unlock()
					for _, j := range js {
						if err := f.Jobs.Complete(f.ctx, j.ID, owner); err != nil {
							errc <- err
							return
						}
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
		is.Equal(len(claimed), jobs) // every job claimed
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("job %d claimed %d times", id, n)
			}
		}
	},
}
