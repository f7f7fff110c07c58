package contract

import (
	"testing"

	"github.com/matryer/is"
)

// ReserveIndexes joins issueTests, so every IssueStore runs it.
func init() {
	issueTests["ReserveIndexes"] = func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		// On a repository without issues: the next issue takes upTo+1.
		is.NoErr(f.Issues.ReserveIndexes(f.ctx, r.ID, 2))
		is.Equal(f.issue(r.ID, alice.ID, "third", "", 1).Index, int64(3))
		// Never lowered; 0 or less does nothing.
		is.NoErr(f.Issues.ReserveIndexes(f.ctx, r.ID, 1))
		is.NoErr(f.Issues.ReserveIndexes(f.ctx, r.ID, 0))
		is.Equal(f.issue(r.ID, alice.ID, "fourth", "", 2).Index, int64(4))
		// Raised past the issues there are.
		is.NoErr(f.Issues.ReserveIndexes(f.ctx, r.ID, 9))
		is.Equal(f.issue(r.ID, alice.ID, "tenth", "", 3).Index, int64(10))
		// The counters count issues, not numbers.
		is.Equal(f.issueCounters(r.ID), [4]int{3, 0, 0, 0})
	}
}
