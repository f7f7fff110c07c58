package contract

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// label makes a label of the repository (repoID) or organisation (orgID).
func (f *fixture) label(repoID, orgID int64, name string, edit ...func(l *issue.Label)) *issue.Label {
	f.t.Helper()
	l := &issue.Label{RepoID: repoID, OrgID: orgID, Name: name, Color: "00aabb", Description: "about " + name,
		CreatedAt: at(20), UpdatedAt: at(21)}
	for _, e := range edit {
		e(l)
	}
	if err := f.Labels.Create(f.ctx, l); err != nil {
		f.t.Fatalf("create label %q: %v", name, err)
	}
	if l.ID == 0 {
		f.t.Fatalf("create label %q: id not set", name)
	}
	return l
}

// labelIssue makes an issue of the repository for the label and
// milestone counters.
func (f *fixture) labelIssue(repoID, posterID int64, title string, closed bool, milestoneID int64) *issue.Issue {
	f.t.Helper()
	i := &issue.Issue{RepoID: repoID, PosterID: posterID, Title: title, IsClosed: closed, MilestoneID: milestoneID,
		CreatedAt: at(30), UpdatedAt: at(31)}
	if closed {
		c := at(32)
		i.ClosedAt = &c
	}
	if err := f.Issues.Create(f.ctx, i); err != nil {
		f.t.Fatalf("create issue %q: %v", title, err)
	}
	return i
}

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

func labelNames(ls []*issue.Label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Name
	}
	return out
}

func milestoneTitles(ms []*issue.Milestone) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Title
	}
	return out
}

func ptrTime(t time.Time) *time.Time { return &t }

var labelTests = map[string]func(t *testing.T, f *fixture){
	"LabelRoundTripAndLists": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		r := f.repo(&o.User, "tools")
		archived := at(22)
		full := f.label(r.ID, 0, "kind/bug", func(l *issue.Label) { l.Exclusive, l.ArchivedAt = true, &archived })
		f.label(r.ID, 0, "alpha")
		f.label(r.ID, 0, "zeta")
		orgL := f.label(0, o.ID, "org-wide")

		got, err := f.Labels.GetByID(f.ctx, full.ID)
		is.NoErr(err)
		is.Equal(got, full) // every field round-trips
		_, err = f.Labels.GetByID(f.ctx, full.ID+1000)
		is.True(errors.Is(err, errs.ErrNotFound))

		page1, total, err := f.Labels.ListByRepo(f.ctx, r.ID, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(labelNames(page1), []string{"alpha", "kind/bug"})
		page2, _, err := f.Labels.ListByRepo(f.ctx, r.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(labelNames(page2), []string{"zeta"})

		orgList, total, err := f.Labels.ListByOrg(f.ctx, o.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(orgList[0], orgL)

		byIDs, err := f.Labels.GetByIDs(f.ctx, []int64{orgL.ID, full.ID, 99999})
		is.NoErr(err)
		is.Equal(labelNames(byIDs), []string{"kind/bug", "org-wide"})

		byName, err := f.Labels.GetByName(f.ctx, r.ID, 0, "zeta")
		is.NoErr(err)
		is.Equal(byName.Name, "zeta")
		_, err = f.Labels.GetByName(f.ctx, r.ID, 0, "org-wide") // the organisation's, not the repository's
		is.True(errors.Is(err, errs.ErrNotFound))
		orgByName, err := f.Labels.GetByName(f.ctx, 0, o.ID, "org-wide")
		is.NoErr(err)
		is.Equal(orgByName.ID, orgL.ID)

		both, err := f.Labels.ListByNames(f.ctx, r.ID, o.ID, []string{"org-wide", "zeta", "nope"})
		is.NoErr(err)
		is.Equal(labelNames(both), []string{"org-wide", "zeta"})

		full.Name, full.Color, full.Description, full.Exclusive, full.ArchivedAt = "renamed", "112233", "d", false, nil
		full.UpdatedAt = at(50)
		is.NoErr(f.Labels.Update(f.ctx, full))
		got, err = f.Labels.GetByID(f.ctx, full.ID)
		is.NoErr(err)
		is.Equal(got, full)

		is.NoErr(f.Labels.Delete(f.ctx, full.ID))
		is.True(errors.Is(f.Labels.Delete(f.ctx, full.ID), errs.ErrNotFound))
		_, total, err = f.Labels.ListByRepo(f.ctx, r.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(2))
	},

	"IssueLabelsAndCounters": func(t *testing.T, f *fixture) {
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
	},

	"MilestonesRoundTripListAndCounters": func(t *testing.T, f *fixture) {
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
	},
}
