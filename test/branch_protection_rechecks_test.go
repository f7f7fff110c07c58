package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestBranchProtectionChangeRechecksPulls changes the rule that holds a
// scheduled merge back: editing it, or deleting it (a glob), queues a check
// of the open pull requests into the branches it names, and the check lets
// the scheduled merge look again and go (Gitea's CheckPRsForBaseBranch).
func TestBranchProtectionChangeRechecksPulls(t *testing.T) {
	t.Parallel()
	srv, c := newMergeServer(t)

	// waiting schedules a merge into main that the rule's second required
	// context holds back.
	waiting := func(t *testing.T, name, rule string) *mergeRepo {
		t.Helper()
		r := newMergeRepo(t, srv, c, name)
		_, head := r.ahead(t, "feature")
		pr := r.open(t, "feature", "Feature", "")
		protectBranch(t, srv, "alice", name, gitea.CreateBranchProtectionOption{RuleName: rule,
			EnableStatusCheck: true, StatusCheckContexts: []string{"ci", "deploy"}})
		r.status(t, head, gitea.StatusSuccess) // context ci
		r.schedule(t, pr.Index)
		r.stillUnmerged(t, pr.Index)
		return r
	}

	t.Run("edited", func(t *testing.T) {
		is := is.New(t)
		r := waiting(t, "edited", "main")
		_, _, err := c.EditBranchProtection("alice", "edited", "main",
			gitea.EditBranchProtectionOption{StatusCheckContexts: []string{"ci"}})
		is.NoErr(err)
		r.waitMerged(t, 1)
	})

	t.Run("deleted glob", func(t *testing.T) {
		is := is.New(t)
		r := waiting(t, "deleted", "ma*")
		_, err := c.DeleteBranchProtection("alice", "deleted", "ma*")
		is.NoErr(err)
		r.waitMerged(t, 1)
	})
}
