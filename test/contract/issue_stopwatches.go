package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

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
