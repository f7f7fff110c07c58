package contract

import (
	"testing"

	"github.com/matryer/is"
)

// testIssueLabelsAndCounters is in the Labels group (labels.go).
func testIssueLabelsAndCounters(t *testing.T, f *fixture) {
	is := is.New(t)
	alice := f.user("alice")
	r := f.repo(alice, "tools")
	bug := f.label(r.ID, 0, "bug")
	doc := f.label(r.ID, 0, "doc")
	open := f.labelIssue(r.ID, alice.ID, "open one", false, 0)
	closed := f.labelIssue(r.ID, alice.ID, "closed one", true, 0)

	is.NoErr(f.Labels.AddToIssue(f.ctx, open.ID, []int64{doc.ID, bug.ID}))
	is.NoErr(f.Labels.AddToIssue(f.ctx, open.ID, []int64{bug.ID, bug.ID})) // idempotent
	is.NoErr(f.Labels.AddToIssue(f.ctx, closed.ID, []int64{bug.ID}))
	is.NoErr(f.Labels.Recount(f.ctx, []int64{bug.ID, doc.ID}))

	of, err := f.Labels.OfIssues(f.ctx, []int64{open.ID, closed.ID, 424242})
	is.NoErr(err)
	is.Equal(labelNames(of[open.ID]), []string{"bug", "doc"})
	is.Equal(labelNames(of[closed.ID]), []string{"bug"})
	is.Equal(len(of[424242]), 0)

	got, err := f.Labels.GetByID(f.ctx, bug.ID)
	is.NoErr(err)
	is.Equal(got.NumIssues, 2)
	is.Equal(got.NumClosedIssues, 1)
	got, err = f.Labels.GetByID(f.ctx, doc.ID)
	is.NoErr(err)
	is.Equal(got.NumIssues, 1)
	is.Equal(got.NumClosedIssues, 0)

	is.NoErr(f.Labels.RemoveFromIssue(f.ctx, open.ID, []int64{bug.ID}))
	is.NoErr(f.Labels.Recount(f.ctx, []int64{bug.ID}))
	got, err = f.Labels.GetByID(f.ctx, bug.ID)
	is.NoErr(err)
	is.Equal(got.NumIssues, 1)
	is.Equal(got.NumClosedIssues, 1)

	// Deleting a label takes it off every issue.
	is.NoErr(f.Labels.Delete(f.ctx, doc.ID))
	of, err = f.Labels.OfIssues(f.ctx, []int64{open.ID})
	is.NoErr(err)
	is.Equal(len(of[open.ID]), 0)
	is.NoErr(f.Labels.Recount(f.ctx, nil))
}
