package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

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
