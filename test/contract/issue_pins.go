package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

// pinOrders reads the pinned issues of a kind and their positions.
func (f *fixture) pinOrders(repoID int64, isPull bool) ([]int64, []int) {
	f.t.Helper()
	ids, err := f.IssueRelations.Pinned(f.ctx, repoID, isPull)
	if err != nil {
		f.t.Fatalf("pinned: %v", err)
	}
	orders := make([]int, len(ids))
	for k, id := range ids {
		i, err := f.Issues.GetByID(f.ctx, id)
		if err != nil {
			f.t.Fatalf("get issue: %v", err)
		}
		orders[k] = i.PinOrder
	}
	return ids, orders
}

func testPinsStayDense(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	a, b, c, d := f.issue(r.ID, u.ID, "a", "", 1), f.issue(r.ID, u.ID, "b", "", 2),
		f.issue(r.ID, u.ID, "c", "", 3), f.issue(r.ID, u.ID, "d", "", 4)
	for k, i := range []*issue.Issue{a, b, c, d} {
		pos, err := f.IssueRelations.Pin(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(pos, k+1)
	}
	pos, err := f.IssueRelations.Pin(f.ctx, b.ID) // already pinned
	is.NoErr(err)
	is.Equal(pos, 2)

	is.NoErr(f.IssueRelations.MovePin(f.ctx, d.ID, 1))
	ids, orders := f.pinOrders(r.ID, false)
	is.Equal(ids, []int64{d.ID, a.ID, b.ID, c.ID})
	is.Equal(orders, []int{1, 2, 3, 4})

	is.NoErr(f.IssueRelations.MovePin(f.ctx, d.ID, 99)) // past the end: last
	ids, orders = f.pinOrders(r.ID, false)
	is.Equal(ids, []int64{a.ID, b.ID, c.ID, d.ID})
	is.Equal(orders, []int{1, 2, 3, 4})

	is.NoErr(f.IssueRelations.MovePin(f.ctx, a.ID, 3))
	ids, _ = f.pinOrders(r.ID, false)
	is.Equal(ids, []int64{b.ID, c.ID, a.ID, d.ID})

	is.NoErr(f.IssueRelations.Unpin(f.ctx, c.ID))
	is.NoErr(f.IssueRelations.Unpin(f.ctx, c.ID)) // not pinned: nothing
	ids, orders = f.pinOrders(r.ID, false)
	is.Equal(ids, []int64{b.ID, a.ID, d.ID})
	is.Equal(orders, []int{1, 2, 3})

	err = f.IssueRelations.MovePin(f.ctx, c.ID, 1)
	isCategory(is, err, errs.ErrNotFound, "issue is not pinned")
	err = f.IssueRelations.MovePin(f.ctx, a.ID, 0)
	is.True(errors.Is(err, errs.ErrInvalid))
	_, err = f.IssueRelations.Pin(f.ctx, 9999)
	isCategory(is, err, errs.ErrNotFound, "issue does not exist")
}

func testPinsPerKind(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r, r2 := f.repo(u, "r"), f.repo(u, "r2")
	a := f.issue(r.ID, u.ID, "a", "", 1)
	p := f.issue(r.ID, u.ID, "p", "", 2, pullIssue)
	o := f.issue(r2.ID, u.ID, "o", "", 3)
	for _, i := range []*issue.Issue{a, p, o} {
		pos, err := f.IssueRelations.Pin(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(pos, 1) // positions count per repository and kind
	}
	ids, _ := f.pinOrders(r.ID, true)
	is.Equal(ids, []int64{p.ID})
	ids, _ = f.pinOrders(r.ID, false)
	is.Equal(ids, []int64{a.ID})
	none, err := f.IssueRelations.Pinned(f.ctx, 9999, false)
	is.NoErr(err)
	is.Equal(len(none), 0)
}
