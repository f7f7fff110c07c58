package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

func testTrackedTimes(t *testing.T, f *fixture) {
	is := is.New(t)
	u, v := f.user("alice"), f.user("bob")
	r := f.repo(u, "r")
	a, b := f.issue(r.ID, u.ID, "a", "", 1), f.issue(r.ID, u.ID, "b", "", 2)
	add := func(i *issue.Issue, uid, secs int64, m int) *issue.TrackedTime {
		tt := &issue.TrackedTime{IssueID: i.ID, UserID: uid, Seconds: secs, CreatedAt: at(m)}
		is.NoErr(f.TrackedTimes.Add(f.ctx, tt))
		is.True(tt.ID != 0)
		return tt
	}
	t1 := add(a, u.ID, 60, 10)
	add(a, v.ID, 120, 11)
	add(a, u.ID, 30, 12)
	add(b, u.ID, 5, 13)

	got, err := f.TrackedTimes.GetByID(f.ctx, t1.ID)
	is.NoErr(err)
	is.Equal(*got, *t1)
	_, err = f.TrackedTimes.GetByID(f.ctx, 9999)
	isCategory(is, err, errs.ErrNotFound, "tracked time does not exist")

	list, total, err := f.TrackedTimes.List(f.ctx, ports.TrackedTimeQuery{RepoID: r.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 2}})
	is.NoErr(err)
	is.Equal(total, int64(4))
	is.Equal(len(list), 2)
	is.Equal(list[0].ID, t1.ID) // oldest first
	list, total, err = f.TrackedTimes.List(f.ctx, ports.TrackedTimeQuery{IssueID: a.ID, UserID: u.ID, Since: at(11), Before: at(12)})
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(list[0].Seconds, int64(30))

	sums, err := f.TrackedTimes.TotalOfIssues(f.ctx, []int64{a.ID, b.ID, 9999})
	is.NoErr(err)
	is.Equal(sums, map[int64]int64{a.ID: 210, b.ID: 5})

	removed, err := f.TrackedTimes.DeleteByIssueUser(f.ctx, a.ID, u.ID)
	is.NoErr(err)
	is.Equal(removed, int64(90))
	removed, err = f.TrackedTimes.DeleteByIssueUser(f.ctx, a.ID, u.ID)
	is.NoErr(err)
	is.Equal(removed, int64(0))
	_, total, err = f.TrackedTimes.List(f.ctx, ports.TrackedTimeQuery{IssueID: a.ID})
	is.NoErr(err)
	is.Equal(total, int64(1))

	is.NoErr(f.TrackedTimes.Delete(f.ctx, t1.ID+1))
	isCategory(is, f.TrackedTimes.Delete(f.ctx, 9999), errs.ErrNotFound, "tracked time does not exist")
}
