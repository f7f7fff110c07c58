package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// issueExtraTests is the IssueExtras group of the store suite: tracked
// times, stopwatches, dependencies, subscriptions and pins.
var issueExtraTests = map[string]func(t *testing.T, f *fixture){
	"TrackedTimes":   testTrackedTimes,
	"Stopwatches":    testStopwatches,
	"Dependencies":   testDependencies,
	"Subscriptions":  testIssueSubscriptions,
	"PinsStayDense":  testPinsStayDense,
	"PinsPerKind":    testPinsPerKind,
	"CascadeOnIssue": testExtrasCascade,
}

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

func testStopwatches(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	a, b := f.issue(r.ID, u.ID, "a", "", 1), f.issue(r.ID, u.ID, "b", "", 2)
	sw := &issue.Stopwatch{IssueID: a.ID, UserID: u.ID, CreatedAt: at(5)}
	is.NoErr(f.TrackedTimes.StartStopwatch(f.ctx, sw))
	is.True(sw.ID != 0)
	err := f.TrackedTimes.StartStopwatch(f.ctx, &issue.Stopwatch{IssueID: b.ID, UserID: u.ID, CreatedAt: at(6)})
	isCategory(is, err, errs.ErrConflict, "a stopwatch is already running")

	got, err := f.TrackedTimes.Stopwatch(f.ctx, a.ID, u.ID)
	is.NoErr(err)
	is.Equal(*got, *sw)
	_, err = f.TrackedTimes.Stopwatch(f.ctx, b.ID, u.ID)
	isCategory(is, err, errs.ErrNotFound, "stopwatch does not exist")
	mine, err := f.TrackedTimes.UserStopwatch(f.ctx, u.ID)
	is.NoErr(err)
	is.Equal(mine.IssueID, a.ID)
	list, total, err := f.TrackedTimes.UserStopwatches(f.ctx, u.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(list[0].ID, sw.ID)

	is.NoErr(f.TrackedTimes.DeleteStopwatch(f.ctx, sw.ID))
	isCategory(is, f.TrackedTimes.DeleteStopwatch(f.ctx, sw.ID), errs.ErrNotFound, "stopwatch does not exist")
	_, err = f.TrackedTimes.UserStopwatch(f.ctx, u.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func testDependencies(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	a, b, c, d := f.issue(r.ID, u.ID, "a", "", 1), f.issue(r.ID, u.ID, "b", "", 2),
		f.issue(r.ID, u.ID, "c", "", 3), f.issue(r.ID, u.ID, "d", "", 4)
	is.NoErr(f.IssueRelations.AddDependency(f.ctx, a.ID, b.ID))
	is.NoErr(f.IssueRelations.AddDependency(f.ctx, b.ID, c.ID))
	is.NoErr(f.IssueRelations.AddDependency(f.ctx, a.ID, d.ID))
	isCategory(is, f.IssueRelations.AddDependency(f.ctx, a.ID, b.ID), errs.ErrConflict, "issue dependency does already exist")
	isCategory(is, f.IssueRelations.AddDependency(f.ctx, a.ID, 9999), errs.ErrNotFound, "issue does not exist")

	has, err := f.IssueRelations.HasDependency(f.ctx, a.ID, b.ID)
	is.NoErr(err)
	is.True(has)
	has, err = f.IssueRelations.HasDependency(f.ctx, b.ID, a.ID)
	is.NoErr(err)
	is.True(!has)

	deps, total, err := f.IssueRelations.Dependencies(f.ctx, a.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(2))
	is.Equal(len(deps), 2)
	blocks, total, err := f.IssueRelations.Blocks(f.ctx, c.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(blocks, []int64{b.ID})

	for _, tc := range []struct {
		from, to int64
		want     bool
	}{{a.ID, c.ID, true}, {a.ID, b.ID, true}, {c.ID, a.ID, false}, {d.ID, a.ID, false}, {b.ID, d.ID, false}} {
		got, err := f.IssueRelations.DependsTransitively(f.ctx, tc.from, tc.to)
		is.NoErr(err)
		is.Equal(got, tc.want)
	}

	open, err := f.IssueRelations.HasOpenDependencies(f.ctx, b.ID)
	is.NoErr(err)
	is.True(open)
	closedDep := f.issue(r.ID, u.ID, "closed", "", 5, closedIssue)
	is.NoErr(f.IssueRelations.AddDependency(f.ctx, c.ID, closedDep.ID))
	open, err = f.IssueRelations.HasOpenDependencies(f.ctx, c.ID)
	is.NoErr(err)
	is.True(!open)

	is.NoErr(f.IssueRelations.RemoveDependency(f.ctx, b.ID, c.ID))
	isCategory(is, f.IssueRelations.RemoveDependency(f.ctx, b.ID, c.ID), errs.ErrNotFound, "issue dependency does not exist")
	got, err := f.IssueRelations.DependsTransitively(f.ctx, a.ID, c.ID)
	is.NoErr(err)
	is.True(!got)
}

func testIssueSubscriptions(t *testing.T, f *fixture) {
	is := is.New(t)
	poster, assignee, commenter, watcher, other := f.user("poster"), f.user("assignee"), f.user("commenter"), f.user("watcher"), f.user("other")
	r := f.repo(poster, "r")
	i := f.issue(r.ID, poster.ID, "a", "", 1)
	is.NoErr(f.Issues.SetAssignees(f.ctx, i.ID, []int64{assignee.ID}))
	is.NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: r.ID,
		PosterID: commenter.ID, Body: "hi", CreatedAt: at(2), UpdatedAt: at(2)}))
	// A timeline event does not make its poster a participant.
	is.NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentLock, IssueID: i.ID, RepoID: r.ID,
		PosterID: other.ID, CreatedAt: at(3), UpdatedAt: at(3)}))

	for _, tc := range []struct {
		uid  int64
		want bool
	}{{poster.ID, true}, {assignee.ID, true}, {commenter.ID, true}, {watcher.ID, false}, {other.ID, false}} {
		got, err := f.IssueRelations.IsParticipant(f.ctx, i.ID, tc.uid)
		is.NoErr(err)
		is.Equal(got, tc.want)
	}

	_, err := f.IssueRelations.Watch(f.ctx, i.ID, watcher.ID)
	isCategory(is, err, errs.ErrNotFound, "issue watch does not exist")
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, watcher.ID, true))
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, commenter.ID, false))
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, commenter.ID, false)) // idempotent upsert
	w, err := f.IssueRelations.Watch(f.ctx, i.ID, commenter.ID)
	is.NoErr(err)
	is.True(!w)

	ids, total, err := f.IssueRelations.Watchers(f.ctx, i.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(ids, []int64{watcher.ID})

	ids, total, err = f.IssueRelations.Subscribers(f.ctx, i.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(3)) // poster, assignee, watcher; the commenter opted out
	is.Equal(ids, []int64{poster.ID, assignee.ID, watcher.ID})
	ids, total, err = f.IssueRelations.Subscribers(f.ctx, i.ID, ports.ListOptions{Page: 2, Limit: 2})
	is.NoErr(err)
	is.Equal(total, int64(3))
	is.Equal(ids, []int64{watcher.ID})
}

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

func testExtrasCascade(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	a, b := f.issue(r.ID, u.ID, "a", "", 1), f.issue(r.ID, u.ID, "b", "", 2)
	is.NoErr(f.TrackedTimes.Add(f.ctx, &issue.TrackedTime{IssueID: a.ID, UserID: u.ID, Seconds: 5, CreatedAt: at(3)}))
	is.NoErr(f.TrackedTimes.StartStopwatch(f.ctx, &issue.Stopwatch{IssueID: a.ID, UserID: u.ID, CreatedAt: at(3)}))
	is.NoErr(f.IssueRelations.AddDependency(f.ctx, b.ID, a.ID))
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, a.ID, u.ID, true))
	is.NoErr(f.Issues.Delete(f.ctx, a.ID))
	_, total, err := f.TrackedTimes.List(f.ctx, ports.TrackedTimeQuery{UserID: u.ID})
	is.NoErr(err)
	is.Equal(total, int64(0))
	_, err = f.TrackedTimes.UserStopwatch(f.ctx, u.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	deps, _, err := f.IssueRelations.Dependencies(f.ctx, b.ID, ports.ListOptions{})
	is.NoErr(err)
	is.Equal(len(deps), 0)
}
