package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// ExpireLeases joins jobTests, so every implementation that runs the job
// contract runs it.
func init() {
	for name, test := range jobLeaseTests {
		jobTests[name] = test
	}
}

// jobLeaseTests is the contract of ExpireLeases: a restarted node ends the
// leases of its own earlier instances, never those of its new instance or
// of other nodes.
var jobLeaseTests = map[string]func(t *testing.T, f *fixture){
	"ExpireLeasesEndsOnlyTheEarlierInstancesLeases": func(t *testing.T, f *fixture) {
		is := is.New(t)
		const lease = 10 * time.Minute
		claim := func(owner string) int64 {
			t.Helper()
			id := f.jobEnqueue(ports.NewJob{Kind: "a", Payload: []byte(owner), RunAt: at(1)})
			js, err := f.Jobs.Claim(f.ctx, owner, jobKindA, at(2), lease, 1)
			is.NoErr(err)
			is.Equal(len(js), 1)
			is.Equal(js[0].ID, id)
			return id
		}
		earlier := claim("node-1/old/1")
		earlier2 := claim("node-1/old/2")
		current := claim("node-1/new/1")
		other := claim("node-2/old/1")
		lookalike := claim("node-10/old/1") // shares node-1's name as a string prefix, not its name
		pending := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(59)})

		n, err := f.Jobs.ExpireLeases(f.ctx, "node-1/", "node-1/new/", at(3))
		is.NoErr(err)
		is.Equal(n, int64(2)) // the two leases of node-1's earlier instance

		// A minute after the restart, long before the leases would end, the
		// earlier instance's jobs are due again, with their attempt counted.
		js, err := f.Jobs.Claim(f.ctx, "node-1/new/2", jobKindA, at(4), lease, 10)
		is.NoErr(err)
		got := ids(js, func(j *ports.Job) int64 { return j.ID })
		is.Equal(len(got), 2)
		is.True(got[0] == earlier || got[1] == earlier)
		is.True(got[0] == earlier2 || got[1] == earlier2)
		for _, j := range js {
			is.Equal(j.Attempts, 2) // the crashed run counts, as for a lease that ran out
		}
		for _, id := range []int64{current, other, lookalike} {
			is.Equal(f.jobState(id), ports.JobRunning) // still leased to their live holders
		}
		is.Equal(f.jobState(pending), ports.JobPending)

		// The new instance's and the other nodes' holders still settle theirs.
		is.NoErr(f.Jobs.Complete(f.ctx, current, "node-1/new/1"))
		is.NoErr(f.Jobs.Complete(f.ctx, other, "node-2/old/1"))
		is.NoErr(f.Jobs.Complete(f.ctx, lookalike, "node-10/old/1"))
		// The crashed holder's late outcome no longer counts.
		is.True(f.Jobs.Complete(f.ctx, earlier, "node-1/old/1") != nil)

		// At the next restart the instance that took them over is an
		// earlier one in its turn.
		n, err = f.Jobs.ExpireLeases(f.ctx, "node-1/", "node-1/newer/", at(5))
		is.NoErr(err)
		is.Equal(n, int64(2))
	},

	"ExpireLeasesWithoutAPrefixEndsNothing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		id := f.jobEnqueue(ports.NewJob{Kind: "a", RunAt: at(1)})
		js, err := f.Jobs.Claim(f.ctx, "anyone/1", jobKindA, at(2), 10*time.Minute, 1)
		is.NoErr(err)
		is.Equal(len(js), 1)
		n, err := f.Jobs.ExpireLeases(f.ctx, "", "", at(3))
		is.NoErr(err)
		is.Equal(n, int64(0))
		is.Equal(len(f.jobClaim("other/1", jobKindA, at(4), 1)), 0) // still anyone's
		is.Equal(f.jobState(id), ports.JobRunning)
	},
}
