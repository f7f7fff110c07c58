package contract

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// milestone makes a milestone of the repository.
func (f *fixture) milestone(repoID int64, title string, due *time.Time, closed bool) *issue.Milestone {
	f.t.Helper()
	m := &issue.Milestone{RepoID: repoID, Title: title, Description: "about " + title, DueAt: due, IsClosed: closed,
		CreatedAt: at(40), UpdatedAt: at(41)}
	if closed {
		c := at(42)
		m.ClosedAt = &c
	}
	if err := f.Milestones.Create(f.ctx, m); err != nil {
		f.t.Fatalf("create milestone %q: %v", title, err)
	}
	return m
}

func milestoneTitles(ms []*issue.Milestone) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Title
	}
	return out
}

// testMilestonesRoundTripListAndCounters is in the Labels group (labels.go).
func testMilestonesRoundTripListAndCounters(t *testing.T, f *fixture) {
	is := is.New(t)
	alice := f.user("alice")
	r := f.repo(alice, "tools")
	other := f.repo(alice, "other")
	late := f.milestone(r.ID, "Late", ptrTime(at(59)), false)
	never := f.milestone(r.ID, "No due date", nil, false)
	soon := f.milestone(r.ID, "Soon", ptrTime(at(45)), false)
	done := f.milestone(r.ID, "Done", ptrTime(at(44)), true)
	f.milestone(other.ID, "Soon", nil, false)

	got, err := f.Milestones.Get(f.ctx, r.ID, done.ID)
	is.NoErr(err)
	is.Equal(got, done)                                 // every field round-trips
	_, err = f.Milestones.Get(f.ctx, other.ID, done.ID) // another repository's
	is.True(errors.Is(err, errs.ErrNotFound))
	byTitle, err := f.Milestones.GetByTitle(f.ctx, r.ID, "Soon")
	is.NoErr(err)
	is.Equal(byTitle.ID, soon.ID)
	_, err = f.Milestones.GetByTitle(f.ctx, r.ID, "soon") // exact
	is.True(errors.Is(err, errs.ErrNotFound))
	byIDs, err := f.Milestones.GetByIDs(f.ctx, []int64{never.ID, late.ID, 99999})
	is.NoErr(err)
	is.Equal(len(byIDs), 2)

	list := func(state, name string, page, limit int) ([]string, int64) {
		t.Helper()
		ms, total, err := f.Milestones.List(f.ctx, ports.MilestoneQuery{RepoID: r.ID, State: state, Name: name,
			ListOptions: ports.ListOptions{Page: page, Limit: limit}})
		if err != nil {
			t.Fatalf("list milestones: %v", err)
		}
		return milestoneTitles(ms), total
	}
	titles, total := list("", "", 1, 10) // open, by due date, none last
	is.Equal(titles, []string{"Soon", "Late", "No due date"})
	is.Equal(total, int64(3))
	titles, total = list("all", "", 1, 2)
	is.Equal(titles, []string{"Done", "Soon"})
	is.Equal(total, int64(4))
	titles, _ = list("all", "", 2, 2)
	is.Equal(titles, []string{"Late", "No due date"})
	titles, total = list("closed", "", 1, 10)
	is.Equal(titles, []string{"Done"})
	is.Equal(total, int64(1))
	titles, _ = list("all", "DUE", 1, 10)
	is.Equal(titles, []string{"No due date"})
	titles, _ = list("all", "100%", 1, 10) // LIKE wildcards are literal
	is.Equal(len(titles), 0)

	soon.Title, soon.Description, soon.IsClosed, soon.ClosedAt, soon.DueAt = "Sooner", "d", true, ptrTime(at(50)), nil
	soon.UpdatedAt = at(51)
	is.NoErr(f.Milestones.Update(f.ctx, soon))
	got, err = f.Milestones.Get(f.ctx, r.ID, soon.ID)
	is.NoErr(err)
	is.Equal(got, soon)

	i1 := f.labelIssue(r.ID, alice.ID, "one", false, late.ID)
	f.labelIssue(r.ID, alice.ID, "two", true, late.ID)
	f.labelIssue(r.ID, alice.ID, "three", true, never.ID)
	is.NoErr(f.Milestones.Recount(f.ctx, []int64{late.ID, never.ID}))
	got, err = f.Milestones.Get(f.ctx, r.ID, late.ID)
	is.NoErr(err)
	is.Equal(got.NumIssues, 2)
	is.Equal(got.NumClosedIssues, 1)
	got, err = f.Milestones.Get(f.ctx, r.ID, never.ID)
	is.NoErr(err)
	is.Equal(got.NumIssues, 1)
	is.Equal(got.NumClosedIssues, 1)

	// Deleting a milestone takes it off its issues.
	is.NoErr(f.Milestones.Delete(f.ctx, r.ID, late.ID))
	is.True(errors.Is(f.Milestones.Delete(f.ctx, r.ID, late.ID), errs.ErrNotFound))
	back, err := f.Issues.GetByID(f.ctx, i1.ID)
	is.NoErr(err)
	is.Equal(back.MilestoneID, int64(0))
}
