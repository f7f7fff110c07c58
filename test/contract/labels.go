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

func labelNames(ls []*issue.Label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Name
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

	"IssueLabelsAndCounters": testIssueLabelsAndCounters,

	"MilestonesRoundTripListAndCounters": testMilestonesRoundTripListAndCounters,
}
