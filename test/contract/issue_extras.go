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
// times, stopwatches, dependencies, subscriptions and pins, each in its
// resource's file (issue_times.go, issue_stopwatches.go,
// issue_dependencies.go, issue_subscriptions.go, issue_pins.go), and what
// deleting an issue takes with it (below).
var issueExtraTests = map[string]func(t *testing.T, f *fixture){
	"TrackedTimes":   testTrackedTimes,
	"Stopwatches":    testStopwatches,
	"Dependencies":   testDependencies,
	"Subscriptions":  testIssueSubscriptions,
	"PinsStayDense":  testPinsStayDense,
	"PinsPerKind":    testPinsPerKind,
	"CascadeOnIssue": testExtrasCascade,
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
