package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// AnyDue joins jobTests, so every implementation that runs the job
// contract runs it.
func init() {
	for name, test := range jobDueTests {
		jobTests[name] = test
	}
}

// jobDueTests is the contract of AnyDue, the runner's look before it
// claims: true exactly while a pending job's RunAt has come or a running
// job's lease has ended.
var jobDueTests = map[string]func(t *testing.T, f *fixture){
	"AnyDueFollowsRunAtAndLeases": func(t *testing.T, f *fixture) {
		is := is.New(t)
		due := func(now time.Time) bool {
			t.Helper()
			ok, err := f.Jobs.AnyDue(f.ctx, now)
			is.NoErr(err)
			return ok
		}
		is.True(!due(at(100))) // nothing at all
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(10)})
		is.True(!due(at(9)))  // not yet
		is.True(due(at(10)))  // its time
		is.True(due(at(100))) // and later
		is.Equal(f.jobClaim("w1", jobKindA, at(10), 1), []int64{id})
		is.True(!due(at(10).Add(jobLease - time.Second))) // running under its lease
		is.True(due(at(10).Add(jobLease)))                // the lease has ended
		is.NoErr(f.Jobs.Complete(f.ctx, id, "w1"))
		is.True(!due(at(100))) // done

		// A job waiting behind its queue's head is due too: AnyDue may say
		// yes where a claim finds nothing, never the other way round.
		head := f.jobEnqueue(ports.NewJob{Kind: "a", Queue: "q", RunAt: at(1)})
		f.jobEnqueue(ports.NewJob{Kind: "b", Queue: "q", RunAt: at(1)})
		is.Equal(f.jobClaim("w2", jobKindA, at(2), 5), []int64{head})
		is.True(due(at(2)))
		// A failed job is never due again.
		is.NoErr(f.Jobs.Fail(f.ctx, head, "w2", "gave up"))
		later := f.jobClaim("w3", []string{"b"}, at(3), 5)
		is.Equal(len(later), 1)
		is.NoErr(f.Jobs.Fail(f.ctx, later[0], "w3", "gave up"))
		is.True(!due(at(100)))
	},
}
