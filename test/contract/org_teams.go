package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

func teamID(t *org.Team) int64 { return t.ID }

var orgTeamTests = map[string]func(t *testing.T, f *fixture){
	"ListSearchAndTeamsOfUser": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		a, b := f.orgCreate("a", alice, user.VisibilityPublic), f.orgCreate("b", bob, user.VisibilityPublic)
		dev := f.orgTeam(a, "dev", permission.ModeWrite, false, bob)
		docs := f.orgTeam(a, "docs", permission.ModeRead, false)
		docs.Description = "writes the handbook"
		is.NoErr(f.Orgs.UpdateTeam(f.ctx, docs))
		ownersA, err := f.Orgs.OwnersTeam(f.ctx, a.ID)
		is.NoErr(err)
		ownersB, err := f.Orgs.OwnersTeam(f.ctx, b.ID)
		is.NoErr(err)

		page1 := ports.ListOptions{Page: 1, Limit: 10}
		list, total, err := f.Orgs.ListTeams(f.ctx, a.ID, "", false, page1)
		is.NoErr(err)
		is.Equal(ids(list, teamID), []int64{dev.ID, docs.ID, ownersA.ID}) // by name
		is.Equal(total, int64(3))
		is.Equal(list[0].NumMembers, 1)
		is.Equal(list[0].Units[permission.UnitCode], permission.ModeWrite)
		list, total, err = f.Orgs.ListTeams(f.ctx, a.ID, "", false, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, teamID), []int64{ownersA.ID})
		is.Equal(total, int64(3))
		list, _, err = f.Orgs.ListTeams(f.ctx, a.ID, "HANDBOOK", false, page1)
		is.NoErr(err)
		is.Equal(len(list), 0)
		list, _, err = f.Orgs.ListTeams(f.ctx, a.ID, "HANDBOOK", true, page1)
		is.NoErr(err)
		is.Equal(ids(list, teamID), []int64{docs.ID})

		mine, total, err := f.Orgs.TeamsOfUser(f.ctx, bob.ID, page1)
		is.NoErr(err)
		is.Equal(ids(mine, teamID), []int64{ownersB.ID, dev.ID}) // by id, across organisations
		is.Equal(total, int64(2))

		got, err := f.Orgs.GetTeamByName(f.ctx, a.ID, "DEV")
		is.NoErr(err)
		is.Equal(got.ID, dev.ID)
		_, err = f.Orgs.GetTeamByName(f.ctx, b.ID, "dev")
		isCategory(is, err, errs.ErrNotFound, "team does not exist")

		orgs, err := f.Orgs.GetMany(f.ctx, []int64{b.ID, a.ID, alice.ID, 999999})
		is.NoErr(err)
		is.Equal(ids(orgs, orgID), []int64{a.ID, b.ID}) // individuals and absent ids skipped
	},
	"UpdateAndDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		dev := f.orgTeam(o, "dev", permission.ModeWrite, false, bob)
		dev.Name, dev.Description, dev.Mode, dev.IncludesAllRepositories, dev.CanCreateOrgRepo = "Devs", "d", permission.ModeRead, true, true
		dev.Units = map[permission.Unit]permission.AccessMode{permission.UnitIssues: permission.ModeRead}
		is.NoErr(f.Orgs.UpdateTeam(f.ctx, dev))
		got, err := f.Orgs.GetTeam(f.ctx, dev.ID)
		is.NoErr(err)
		is.Equal(got.Name, "Devs")
		is.Equal(got.LowerName, "devs")
		is.Equal(got.Mode, permission.ModeRead)
		is.True(got.IncludesAllRepositories && got.CanCreateOrgRepo)
		is.Equal(got.Units, dev.Units) // units replaced
		taken := *got
		taken.Name = "Owners"
		isCategory(is, f.Orgs.UpdateTeam(f.ctx, &taken), errs.ErrConflict, "team already exists")

		is.NoErr(f.Orgs.DeleteTeam(f.ctx, dev.ID))
		_, err = f.Orgs.GetTeam(f.ctx, dev.ID)
		isCategory(is, err, errs.ErrNotFound, "team does not exist")
		m, err := f.Orgs.Membership(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.True(!m.IsMember) // bob's only team is gone, and so is his membership
		m, err = f.Orgs.Membership(f.ctx, o.ID, alice.ID)
		is.NoErr(err)
		is.True(m.IsOwner)
		isCategory(is, f.Orgs.DeleteTeam(f.ctx, dev.ID), errs.ErrNotFound, "team does not exist")
	},
	"MembersAndRepos": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		dev := f.orgTeam(o, "dev", permission.ModeWrite, false, carol, bob)
		all := f.orgTeam(o, "all", permission.ModeRead, true)
		r1, r2 := f.repo(&o.User, "one"), f.repo(&o.User, "two")
		is.NoErr(f.Orgs.AddTeamRepo(f.ctx, dev.ID, r1.ID))

		members, total, err := f.Orgs.TeamMembers(f.ctx, dev.ID, ports.ListOptions{Page: 1, Limit: 1})
		is.NoErr(err)
		is.Equal(ids(members, orgUserID), []int64{bob.ID})
		is.Equal(total, int64(2))

		teams, err := f.Orgs.RepoTeams(f.ctx, r1.ID)
		is.NoErr(err)
		is.Equal(ids(teams, teamID), []int64{all.ID, dev.ID, mustOwners(is, f, o).ID})
		teams, err = f.Orgs.RepoTeams(f.ctx, r2.ID)
		is.NoErr(err)
		is.Equal(ids(teams, teamID), []int64{all.ID, mustOwners(is, f, o).ID})

		list, _, err := f.Repos.Search(f.ctx, ports.RepoSearch{TeamID: dev.ID, Viewer: ports.RepoViewer{IsAdmin: true, UserID: alice.ID},
			ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(ids(list, repoID), []int64{r1.ID})
		list, _, err = f.Repos.Search(f.ctx, ports.RepoSearch{TeamID: all.ID, Viewer: ports.RepoViewer{IsAdmin: true, UserID: alice.ID},
			ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(ids(list, repoID), []int64{r1.ID, r2.ID}) // includes all

		is.NoErr(f.Orgs.RemoveTeamRepo(f.ctx, dev.ID, r1.ID))
		isCategory(is, f.Orgs.RemoveTeamRepo(f.ctx, dev.ID, r1.ID), errs.ErrNotFound, "repository is not in the team")
		rel, err := f.Repos.Relations(f.ctx, r1.Facts(), bob.ID)
		is.NoErr(err)
		is.Equal(rel, permission.Relations{IsOrgMember: true}) // the team no longer reaches it
	},
}

func mustOwners(is *is.I, f *fixture, o *org.Organization) *org.Team {
	is.Helper()
	t, err := f.Orgs.OwnersTeam(f.ctx, o.ID)
	is.NoErr(err)
	return t
}
