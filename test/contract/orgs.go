package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// orgCreate makes an organisation owned by creator.
func (f *fixture) orgCreate(name string, creator *user.User, vis user.Visibility) *org.Organization {
	f.t.Helper()
	o := org.New(name, org.Profile{FullName: "Full " + name, Description: "about " + name,
		Website: "https://" + name + ".example", Location: "Lyon", Visibility: vis, RepoAdminChangeTeamAccess: true})
	o.Created, o.Updated = at(1), at(2)
	if err := f.Orgs.Create(f.ctx, o, creator.ID); err != nil {
		f.t.Fatalf("create org %q: %v", name, err)
	}
	if o.ID == 0 {
		f.t.Fatalf("create org %q: id not set", name)
	}
	return o
}

// orgTeam makes a team of o with mode m on every unit and the given members.
func (f *fixture) orgTeam(o *org.Organization, name string, m permission.AccessMode, all bool, members ...*user.User) *org.Team {
	f.t.Helper()
	units := map[permission.Unit]permission.AccessMode{}
	for _, u := range permission.AllUnits() {
		units[u] = m
	}
	t := &org.Team{OrgID: o.ID, Name: name, Mode: m, Units: units, IncludesAllRepositories: all}
	if err := f.Orgs.CreateTeam(f.ctx, t); err != nil {
		f.t.Fatalf("create team %q: %v", name, err)
	}
	for _, u := range members {
		if err := f.Orgs.AddTeamMember(f.ctx, t.ID, u.ID); err != nil {
			f.t.Fatalf("add %q to team %q: %v", u.Name, name, err)
		}
	}
	return t
}

func orgID(o *org.Organization) int64 { return o.ID }

func orgUserID(u *user.User) int64 { return u.ID }

var orgTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndOwnersTeam": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		o := f.orgCreate("Acme", alice, user.VisibilityLimited)

		got, err := f.Orgs.GetByName(f.ctx, "acme")
		is.NoErr(err)
		is.Equal(got, o) // every field round-trips
		byID, err := f.Orgs.Get(f.ctx, o.ID)
		is.NoErr(err)
		is.Equal(byID, o)
		asUser, err := f.Users.GetByName(f.ctx, "Acme")
		is.NoErr(err)
		is.Equal(asUser.Kind, user.KindOrganization) // one namespace with users

		owners, err := f.Orgs.OwnersTeam(f.ctx, o.ID)
		is.NoErr(err)
		is.True(owners.IsOwnersTeam())
		is.Equal(owners.NumMembers, 1)
		is.True(owners.IncludesAllRepositories && owners.CanCreateOrgRepo)
		is.Equal(owners.Units[permission.UnitCode], permission.ModeOwner)

		m, err := f.Orgs.Membership(f.ctx, o.ID, alice.ID)
		is.NoErr(err)
		is.Equal(m, org.Membership{IsOwner: true, IsMember: true, CanCreateRepo: true, MaxMode: permission.ModeOwner})
	},
	"NameIsSharedWithUsers": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		err := f.Orgs.Create(f.ctx, org.New("ALICE", org.Profile{Visibility: user.VisibilityPublic}), alice.ID)
		isCategory(is, err, errs.ErrConflict, "user already exists")
		f.orgCreate("acme", alice, user.VisibilityPublic)
		err = f.Users.Create(f.ctx, newUser("Acme"))
		is.True(err != nil) // a user cannot take an organisation's name either
	},
	"GetIndividualIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		_, err := f.Orgs.Get(f.ctx, alice.ID)
		isCategory(is, err, errs.ErrNotFound, "organization does not exist")
		_, err = f.Orgs.GetByName(f.ctx, "alice")
		isCategory(is, err, errs.ErrNotFound, "organization does not exist")
	},
	"UpdateWritesProfileAndSettings": func(t *testing.T, f *fixture) {
		is := is.New(t)
		o := f.orgCreate("acme", f.user("alice"), user.VisibilityPublic)
		org.Profile{FullName: "New", Visibility: user.VisibilityPrivate}.Apply(o)
		is.NoErr(f.Orgs.Update(f.ctx, o))
		got, err := f.Orgs.Get(f.ctx, o.ID)
		is.NoErr(err)
		is.Equal(got, o)
		is.True(!got.RepoAdminChangeTeamAccess)
		missing := *o
		missing.ID = 999999
		isCategory(is, f.Orgs.Update(f.ctx, &missing), errs.ErrNotFound, "organization does not exist")
	},
	"DeleteCascadesAndRefusesWhileOwningRepos": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		r := f.repo(&o.User, "code")
		isCategory(is, f.Orgs.Delete(f.ctx, o.ID), errs.ErrConflict, "organization still owns repositories")
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		is.NoErr(f.Orgs.Delete(f.ctx, o.ID))
		_, err := f.Orgs.Get(f.ctx, o.ID)
		isCategory(is, err, errs.ErrNotFound, "organization does not exist")
		_, err = f.Orgs.OwnersTeam(f.ctx, o.ID)
		isCategory(is, err, errs.ErrNotFound, "team does not exist")
		m, err := f.Orgs.Membership(f.ctx, o.ID, alice.ID)
		is.NoErr(err)
		is.Equal(m, org.Membership{})
		isCategory(is, f.Orgs.Delete(f.ctx, alice.ID), errs.ErrNotFound, "organization does not exist") // not an org
	},
	"SearchFiltersByVisibilityAndMembership": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		pub := f.orgCreate("pub", alice, user.VisibilityPublic)
		lim := f.orgCreate("lim", alice, user.VisibilityLimited)
		priv := f.orgCreate("priv", bob, user.VisibilityPrivate)
		is.NoErr(f.Orgs.SetPublic(f.ctx, pub.ID, alice.ID, true))

		search := func(q ports.OrgSearch) ([]int64, int64) {
			is.Helper()
			if q.Limit == 0 {
				q.ListOptions = ports.ListOptions{Page: 1, Limit: 10}
			}
			list, total, err := f.Orgs.Search(f.ctx, q)
			is.NoErr(err)
			return ids(list, orgID), total
		}
		got, total := search(ports.OrgSearch{})
		is.Equal(got, []int64{lim.ID, priv.ID, pub.ID}) // by name
		is.Equal(total, int64(3))
		got, _ = search(ports.OrgSearch{Visibilities: []user.Visibility{user.VisibilityPublic}})
		is.Equal(got, []int64{pub.ID})
		got, _ = search(ports.OrgSearch{Visibilities: []user.Visibility{user.VisibilityPublic}, IncludeMemberID: bob.ID})
		is.Equal(got, []int64{priv.ID, pub.ID}) // bob sees his private org
		got, _ = search(ports.OrgSearch{MemberID: alice.ID})
		is.Equal(got, []int64{lim.ID, pub.ID})
		got, _ = search(ports.OrgSearch{MemberID: alice.ID, PublicMembershipOnly: true})
		is.Equal(got, []int64{pub.ID})
		got, _ = search(ports.OrgSearch{Keyword: "PRI"})
		is.Equal(got, []int64{priv.ID})
		got, total = search(ports.OrgSearch{ListOptions: ports.ListOptions{Page: 2, Limit: 2}})
		is.Equal(got, []int64{pub.ID}) // paged in SQL
		is.Equal(total, int64(3))
		none, _ := search(ports.OrgSearch{Keyword: "alice"})
		is.Equal(len(none), 0) // individuals are never listed
	},
	"MembersPublicMembershipAndRemoval": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol, dave := f.user("alice"), f.user("bob"), f.user("carol"), f.user("dave")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		dev := f.orgTeam(o, "dev", permission.ModeRead, false, carol, bob)
		is.NoErr(f.Orgs.AddTeamMember(f.ctx, dev.ID, bob.ID)) // twice is fine

		members := func(publicOnly bool, opts ports.ListOptions) ([]int64, int64) {
			is.Helper()
			list, total, err := f.Orgs.Members(f.ctx, o.ID, publicOnly, opts)
			is.NoErr(err)
			return ids(list, orgUserID), total
		}
		got, total := members(false, ports.ListOptions{Page: 1, Limit: 10})
		is.Equal(got, []int64{alice.ID, bob.ID, carol.ID})
		is.Equal(total, int64(3))
		got, total = members(false, ports.ListOptions{Page: 2, Limit: 2})
		is.Equal(got, []int64{carol.ID})
		is.Equal(total, int64(3))

		is.NoErr(f.Orgs.SetPublic(f.ctx, o.ID, bob.ID, true))
		got, _ = members(true, ports.ListOptions{Page: 1, Limit: 10})
		is.Equal(got, []int64{bob.ID})
		m, err := f.Orgs.Membership(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.Equal(m, org.Membership{IsMember: true, IsPublic: true, MaxMode: permission.ModeRead})
		isCategory(is, f.Orgs.SetPublic(f.ctx, o.ID, dave.ID, true), errs.ErrNotFound, "user is not a member of the organization")

		teams, err := f.Orgs.TeamsOf(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.Equal(len(teams), 1)
		is.Equal(teams[0].Name, "dev")
		is.Equal(teams[0].NumMembers, 2)
		is.Equal(teams[0].Units[permission.UnitIssues], permission.ModeRead)

		is.NoErr(f.Orgs.RemoveMember(f.ctx, o.ID, bob.ID))
		got, _ = members(false, ports.ListOptions{Page: 1, Limit: 10})
		is.Equal(got, []int64{alice.ID, carol.ID})
		teams, err = f.Orgs.TeamsOf(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.Equal(len(teams), 0)
		isCategory(is, f.Orgs.RemoveMember(f.ctx, o.ID, bob.ID), errs.ErrNotFound, "user is not a member of the organization")
		isCategory(is, f.Orgs.AddTeamMember(f.ctx, 999999, bob.ID), errs.ErrNotFound, "team does not exist")

		// The last owner stays; once another owner exists, the first may go.
		isCategory(is, f.Orgs.RemoveMember(f.ctx, o.ID, alice.ID), errs.ErrConflict, "the last owner of an organization cannot be removed")
		owners, err := f.Orgs.OwnersTeam(f.ctx, o.ID)
		is.NoErr(err)
		is.NoErr(f.Orgs.AddTeamMember(f.ctx, owners.ID, carol.ID))
		is.NoErr(f.Orgs.RemoveMember(f.ctx, o.ID, alice.ID))
		m, err = f.Orgs.Membership(f.ctx, o.ID, carol.ID)
		is.NoErr(err)
		is.True(m.IsOwner && m.IsMember)
	},
	"TeamMembersComeAndGo": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		dev := f.orgTeam(o, "dev", permission.ModeWrite, true, bob)
		other := f.orgTeam(o, "other", permission.ModeRead, false, bob)

		got, err := f.Orgs.GetTeam(f.ctx, dev.ID)
		is.NoErr(err)
		is.Equal(got.Name, "dev")
		is.Equal(got.OrgID, o.ID)
		is.Equal(got.NumMembers, 1)
		is.True(got.IncludesAllRepositories)
		is.Equal(got.Units, dev.Units)
		_, err = f.Orgs.GetTeam(f.ctx, 999999)
		isCategory(is, err, errs.ErrNotFound, "team does not exist")

		in, err := f.Orgs.IsTeamMember(f.ctx, dev.ID, bob.ID)
		is.NoErr(err)
		is.True(in)
		is.NoErr(f.Orgs.RemoveTeamMember(f.ctx, dev.ID, bob.ID))
		in, err = f.Orgs.IsTeamMember(f.ctx, dev.ID, bob.ID)
		is.NoErr(err)
		is.True(!in)
		m, err := f.Orgs.Membership(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.True(m.IsMember) // still in "other"
		is.NoErr(f.Orgs.RemoveTeamMember(f.ctx, other.ID, bob.ID))
		m, err = f.Orgs.Membership(f.ctx, o.ID, bob.ID)
		is.NoErr(err)
		is.True(!m.IsMember) // the last team took the membership with it
		isCategory(is, f.Orgs.RemoveTeamMember(f.ctx, other.ID, bob.ID), errs.ErrNotFound, "user is not a member of the organization")

		owners, err := f.Orgs.OwnersTeam(f.ctx, o.ID)
		is.NoErr(err)
		isCategory(is, f.Orgs.RemoveTeamMember(f.ctx, owners.ID, alice.ID), errs.ErrConflict, "the last owner of an organization cannot be removed")
		m, err = f.Orgs.Membership(f.ctx, o.ID, alice.ID)
		is.NoErr(err)
		is.True(m.IsOwner) // the refusal undid the removal
	},
	"TeamNamesAreUniquePerOrg": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		a, b := f.orgCreate("a", alice, user.VisibilityPublic), f.orgCreate("b", alice, user.VisibilityPublic)
		f.orgTeam(a, "dev", permission.ModeRead, false)
		f.orgTeam(b, "dev", permission.ModeRead, false)
		err := f.Orgs.CreateTeam(f.ctx, &org.Team{OrgID: a.ID, Name: "DEV"})
		isCategory(is, err, errs.ErrConflict, "team already exists")
	},
	"RelationsFromTeams": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner, writer, reader, member, outsider, collab := f.user("owner"), f.user("writer"), f.user("reader"),
			f.user("member"), f.user("outsider"), f.user("collab")
		o := f.orgCreate("acme", owner, user.VisibilityPrivate)
		given := f.repo(&o.User, "given", private)
		other := f.repo(&o.User, "other", private)
		personal := f.repo(owner, "personal")
		writers := f.orgTeam(o, "writers", permission.ModeWrite, false, writer)
		is.NoErr(f.Orgs.AddTeamRepo(f.ctx, writers.ID, given.ID))
		f.orgTeam(o, "readers", permission.ModeRead, true, reader, writer)
		f.orgTeam(o, "empty", permission.ModeNone, true, member)
		isCategory(is, f.Orgs.AddTeamRepo(f.ctx, writers.ID, personal.ID), errs.ErrNotFound, "repository does not exist")
		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: given.ID, UserID: collab.ID, Mode: permission.ModeAdmin}))

		units := func(m permission.AccessMode) map[permission.Unit]permission.AccessMode {
			out := map[permission.Unit]permission.AccessMode{}
			for _, u := range permission.AllUnits() {
				out[u] = m
			}
			return out
		}
		cases := []struct {
			name string
			repo *repository.Repository
			user int64
			want permission.Relations
		}{
			{"owner", given, owner.ID, permission.Relations{IsOrgOwner: true, IsOrgMember: true, TeamUnits: units(permission.ModeOwner)}},
			{"writer on given", given, writer.ID, permission.Relations{IsOrgMember: true, TeamUnits: units(permission.ModeWrite)}},
			{"writer on other", other, writer.ID, permission.Relations{IsOrgMember: true, TeamUnits: units(permission.ModeRead)}},
			{"reader", given, reader.ID, permission.Relations{IsOrgMember: true, TeamUnits: units(permission.ModeRead)}},
			{"member of a none team", given, member.ID, permission.Relations{IsOrgMember: true, TeamUnits: units(permission.ModeNone)}},
			{"outsider", given, outsider.ID, permission.Relations{}},
			{"collaborator", given, collab.ID, permission.Relations{CollaboratorMode: permission.ModeAdmin}},
			{"anonymous", given, 0, permission.Relations{}},
		}
		for _, tc := range cases {
			is := is.New(t)
			got, err := f.Repos.Relations(f.ctx, tc.repo.Facts(), tc.user)
			is.NoErr(err)
			is.Equal(got, tc.want) // Relations
			many, err := f.Repos.RelationsMany(f.ctx, []permission.Repo{given.Facts(), other.Facts(), personal.Facts()}, tc.user)
			is.NoErr(err)
			is.Equal(many[tc.repo.ID], tc.want) // RelationsMany agrees
		}
	},
	"SearchShowsOrgReposToTeams": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner, writer, member, outsider := f.user("owner", notAdmin), f.user("writer", notAdmin), f.user("member", notAdmin), f.user("outsider", notAdmin)
		o := f.orgCreate("acme", owner, user.VisibilityPrivate)
		given := f.repo(&o.User, "given", private)
		hidden := f.repo(&o.User, "hidden", private)
		open := f.repo(&o.User, "open")
		writers := f.orgTeam(o, "writers", permission.ModeWrite, false, writer)
		is.NoErr(f.Orgs.AddTeamRepo(f.ctx, writers.ID, given.ID))
		f.orgTeam(o, "plain", permission.ModeRead, false, member)

		visible := func(u *user.User) []int64 {
			is.Helper()
			list, _, err := f.Repos.Search(f.ctx, ports.RepoSearch{OwnerID: o.ID, Exclusive: true,
				Viewer: ports.RepoViewer{UserID: u.ID}, ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
			is.NoErr(err)
			return ids(list, repoID)
		}
		is.Equal(visible(owner), []int64{given.ID, hidden.ID, open.ID})
		is.Equal(visible(writer), []int64{given.ID, open.ID})
		is.Equal(visible(member), []int64{open.ID}) // a public repository of a private org
		is.Equal(len(visible(outsider)), 0)
	},
}

// notAdmin makes a fixture user a plain one (newUser is a site admin).
func notAdmin(u *user.User) { u.IsAdmin, u.IsRestricted = false, false }
