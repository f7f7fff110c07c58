package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

// branchRule stores a rule named name on repoID, edited by edit.
func (f *fixture) branchRule(repoID int64, name string, edit ...func(r *protection.BranchRule)) *protection.BranchRule {
	f.t.Helper()
	r := &protection.BranchRule{RepoID: repoID, Name: name, Created: at(1), Updated: at(1)}
	for _, e := range edit {
		e(r)
	}
	r.Normalize()
	if err := f.BranchProtections.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create branch rule %q: %v", name, err)
	}
	return r
}

var branchProtectionTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndList": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		main := f.branchRule(r.ID, "main", func(b *protection.BranchRule) {
			b.EnablePush, b.EnablePushAllowlist = true, true
			b.PushAllowlistUserIDs = []int64{owner.ID}
			b.StatusCheckContexts = []string{"ci/*", "lint"}
			b.ProtectedFilePatterns = "*.lock"
			b.RequiredApprovals = 2
			b.BlockAdminMergeOverride = true
		})
		rel := f.branchRule(r.ID, "release/*")
		f.branchRule(other.ID, "main") // names are unique per repository only
		is.Equal(main.Priority, int64(1))
		is.Equal(rel.Priority, int64(2)) // a new rule comes last

		got, err := f.BranchProtections.GetByName(f.ctx, r.ID, "main")
		is.NoErr(err)
		is.Equal(got.ID, main.ID)
		is.Equal(got.PushAllowlistUserIDs, []int64{owner.ID})
		is.Equal(got.StatusCheckContexts, []string{"ci/*", "lint"})
		is.Equal(got.ProtectedFilePatterns, "*.lock")
		is.Equal(got.RequiredApprovals, int64(2))
		is.True(got.EnablePushAllowlist && got.BlockAdminMergeOverride)
		is.Equal(got.MergeAllowlistTeamIDs, []int64{})
		is.True(got.Created.Equal(at(1)))

		list, err := f.BranchProtections.List(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(len(list), 2)
		is.Equal(list[0].Name, "main")
		is.Equal(list[1].Name, "release/*")

		_, err = f.BranchProtections.GetByName(f.ctx, r.ID, "develop")
		isCategory(is, err, errs.ErrNotFound, "branch protection does not exist")
	},
	"NameTaken": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		f.branchRule(r.ID, "main")
		err := f.BranchProtections.Create(f.ctx, &protection.BranchRule{RepoID: r.ID, Name: "main", Created: at(2), Updated: at(2)})
		isCategory(is, err, errs.ErrConflict, "Branch protection already exist")
		err = f.BranchProtections.Create(f.ctx, &protection.BranchRule{RepoID: 424242, Name: "main", Created: at(2), Updated: at(2)})
		is.True(err != nil)
	},
	"UpdateDeleteAndPriorities": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		a := f.branchRule(r.ID, "a")
		b := f.branchRule(r.ID, "b")
		c := f.branchRule(r.ID, "c")
		o := f.branchRule(other.ID, "o")

		a.EnableStatusCheck, a.StatusCheckContexts, a.Updated = true, []string{"ci"}, at(5)
		is.NoErr(f.BranchProtections.Update(f.ctx, a))
		got, err := f.BranchProtections.GetByName(f.ctx, r.ID, "a")
		is.NoErr(err)
		is.True(got.EnableStatusCheck)
		is.Equal(got.StatusCheckContexts, []string{"ci"})
		is.True(got.Updated.Equal(at(5)))

		is.NoErr(f.BranchProtections.SetPriorities(f.ctx, r.ID, []int64{c.ID, a.ID, b.ID, o.ID}))
		prio := map[string]int64{}
		list, err := f.BranchProtections.List(f.ctx, r.ID)
		is.NoErr(err)
		for _, x := range list {
			prio[x.Name] = x.Priority
		}
		is.Equal(prio, map[string]int64{"c": 1, "a": 2, "b": 3})
		gotO, err := f.BranchProtections.GetByName(f.ctx, other.ID, "o")
		is.NoErr(err)
		is.Equal(gotO.Priority, int64(1)) // another repository's rule is left alone

		isCategory(is, f.BranchProtections.Delete(f.ctx, other.ID, a.ID), errs.ErrNotFound, "branch protection does not exist")
		is.NoErr(f.BranchProtections.Delete(f.ctx, r.ID, a.ID))
		_, err = f.BranchProtections.GetByName(f.ctx, r.ID, "a")
		isCategory(is, err, errs.ErrNotFound, "branch protection does not exist")
		isCategory(is, f.BranchProtections.Update(f.ctx, &protection.BranchRule{ID: b.ID, RepoID: other.ID, Name: "b"}),
			errs.ErrNotFound, "branch protection does not exist")
	},
}
