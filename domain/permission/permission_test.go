package permission_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

const (
	none  = permission.ModeNone
	read  = permission.ModeRead
	write = permission.ModeWrite
	admin = permission.ModeAdmin
	owner = permission.ModeOwner

	code     = permission.UnitCode
	issues   = permission.UnitIssues
	pulls    = permission.UnitPulls
	releases = permission.UnitReleases
	wiki     = permission.UnitWiki
	actions  = permission.UnitActions
)

func TestCompute(t *testing.T) {
	teams := func(m map[permission.Unit]permission.AccessMode) permission.Relations {
		return permission.Relations{IsOrgMember: true, TeamUnits: m}
	}
	collab := func(m permission.AccessMode) permission.Relations {
		return permission.Relations{CollaboratorMode: m}
	}
	limited, privateVis := user.VisibilityLimited, user.VisibilityPrivate

	cases := []struct {
		name     string
		actor    permission.Actor
		repo     permission.Repo
		rel      permission.Relations
		wantMode permission.AccessMode
		want     grid
	}{
		// anonymous
		{"anonymous, public repo of public user", anonymous(), repo(), permission.Relations{}, read, everywhere(read)},
		{"anonymous, private repo", anonymous(), repo(private), permission.Relations{}, none, everywhere(none)},
		{"anonymous, public repo of limited user", anonymous(), repo(ownerVis(limited)), permission.Relations{}, none, everywhere(none)},
		{"anonymous, public repo of private user", anonymous(), repo(ownerVis(privateVis)), permission.Relations{}, none, everywhere(none)},
		{"anonymous, public repo of public org", anonymous(), repo(orgOwned), permission.Relations{}, read, everywhere(read)},
		{"anonymous, public repo of limited org", anonymous(), repo(orgOwned, ownerVis(limited)), permission.Relations{}, none, everywhere(none)},
		{"anonymous, public repo of private org", anonymous(), repo(orgOwned, ownerVis(privateVis)), permission.Relations{}, none, everywhere(none)},
		{"anonymous, private repo of public org", anonymous(), repo(orgOwned, private), permission.Relations{}, none, everywhere(none)},
		{"anonymous, archived public repo", anonymous(), repo(archived), permission.Relations{}, read, everywhere(read)},
		{"anonymous, disabled units stay none", anonymous(), repo(units(code, issues)), permission.Relations{}, read, on(read, code, issues)},
		{"anonymous, relations ignored", anonymous(), repo(private), permission.Relations{IsOwner: true, CollaboratorMode: admin}, none, everywhere(none)},

		// plain signed-in user without relations
		{"user, public repo", plainUser(), repo(), permission.Relations{}, read, everywhere(read)},
		{"user, private repo", plainUser(), repo(private), permission.Relations{}, none, everywhere(none)},
		{"user, public repo of limited user", plainUser(), repo(ownerVis(limited)), permission.Relations{}, read, everywhere(read)},
		{"user, public repo of private user", plainUser(), repo(ownerVis(privateVis)), permission.Relations{}, none, everywhere(none)},
		{"user, public repo of public org", plainUser(), repo(orgOwned), permission.Relations{}, read, everywhere(read)},
		{"user, public repo of limited org", plainUser(), repo(orgOwned, ownerVis(limited)), permission.Relations{}, read, everywhere(read)},
		{"user, public repo of private org", plainUser(), repo(orgOwned, ownerVis(privateVis)), permission.Relations{}, none, everywhere(none)},
		{"user, private repo of public org", plainUser(), repo(orgOwned, private), permission.Relations{}, none, everywhere(none)},
		{"user, private repo of private org", plainUser(), repo(orgOwned, private, ownerVis(privateVis)), permission.Relations{}, none, everywhere(none)},
		{"user, archived repo keeps read", plainUser(), repo(archived), permission.Relations{}, read, everywhere(read)},
		{"user, disabled units", plainUser(), repo(units(code)), permission.Relations{}, read, on(read, code)},
		{"user, no units at all", plainUser(), repo(units()), permission.Relations{}, read, on(read)},
		{"public-only token does not change the modes", tokenUser("public-only", "all"), repo(private), collab(write), write, everywhere(write)},

		// site admin
		{"admin, public repo", siteAdmin(), repo(), permission.Relations{}, owner, everywhere(owner)},
		{"admin, private repo of private org", siteAdmin(), repo(orgOwned, private, ownerVis(privateVis)), permission.Relations{}, owner, everywhere(owner)},
		{"admin, private repo of private user", siteAdmin(), repo(private, ownerVis(privateVis)), permission.Relations{}, owner, everywhere(owner)},
		{"admin, disabled units stay none", siteAdmin(), repo(units(code, issues)), permission.Relations{}, owner, on(owner, code, issues)},
		{"restricted admin is still admin", func() permission.Actor { a := siteAdmin(); a.IsRestricted = true; return a }(), repo(private), permission.Relations{}, owner, everywhere(owner)},

		// personal owner
		{"owner by id, private repo", repoOwner(), repo(private), permission.Relations{}, owner, everywhere(owner)},
		{"owner by id, private user", repoOwner(), repo(private, ownerVis(privateVis)), permission.Relations{}, owner, everywhere(owner)},
		{"owner by relation", plainUser(), repo(private), permission.Relations{IsOwner: true}, owner, everywhere(owner)},
		{"owner, archived", repoOwner(), repo(archived), permission.Relations{}, owner, everywhere(owner)},
		{"owner, disabled units", repoOwner(), repo(units(code)), permission.Relations{}, owner, on(owner, code)},
		{"restricted owner", func() permission.Actor { a := repoOwner(); a.IsRestricted = true; return a }(), repo(private), permission.Relations{}, owner, everywhere(owner)},

		// collaborators on a personal repository
		{"collaborator read, public repo", plainUser(), repo(), collab(read), read, everywhere(read)},
		{"collaborator read, private repo", plainUser(), repo(private), collab(read), read, everywhere(read)},
		{"collaborator write, private repo", plainUser(), repo(private), collab(write), write, everywhere(write)},
		{"collaborator write, public repo", plainUser(), repo(), collab(write), write, everywhere(write)},
		{"collaborator admin, private repo", plainUser(), repo(private), collab(admin), admin, everywhere(admin)},
		{"collaborator of a private user", plainUser(), repo(private, ownerVis(privateVis)), collab(read), read, everywhere(read)},
		{"collaborator, archived keeps write", plainUser(), repo(archived), collab(write), write, everywhere(write)},
		{"collaborator, disabled units", plainUser(), repo(private, units(code, wiki)), collab(write), write, on(write, code, wiki)},

		// restricted users
		{"restricted, public repo", restrictedUser(), repo(), permission.Relations{}, none, everywhere(none)},
		{"restricted, public repo of public org", restrictedUser(), repo(orgOwned), permission.Relations{}, none, everywhere(none)},
		{"restricted, org member without teams", restrictedUser(), repo(orgOwned), permission.Relations{IsOrgMember: true}, none, everywhere(none)},
		{"restricted collaborator read, public repo", restrictedUser(), repo(), collab(read), read, everywhere(read)},
		{"restricted collaborator write, private repo", restrictedUser(), repo(private), collab(write), write, everywhere(write)},
		{"restricted team member", restrictedUser(), repo(orgOwned), teams(map[permission.Unit]permission.AccessMode{code: read}), read, on(read, code)},

		// organisations
		{"org owner, private repo of private org", orgUser(), repo(orgOwned, private, ownerVis(privateVis)), permission.Relations{IsOrgOwner: true, IsOrgMember: true}, owner, everywhere(owner)},
		{"org owner without member flag", orgUser(), repo(orgOwned, private, ownerVis(privateVis)), permission.Relations{IsOrgOwner: true}, owner, everywhere(owner)},
		{"org owner flag ignored on personal repo", orgUser(), repo(private), permission.Relations{IsOrgOwner: true}, none, everywhere(none)},
		{"org member without teams, private repo", orgUser(), repo(orgOwned, private), permission.Relations{IsOrgMember: true}, none, everywhere(none)},
		{"org member without teams, public repo", orgUser(), repo(orgOwned), permission.Relations{IsOrgMember: true}, read, everywhere(read)},
		{"org member, public repo of private org", orgUser(), repo(orgOwned, ownerVis(privateVis)), permission.Relations{IsOrgMember: true}, read, everywhere(read)},
		{"team member, private repo", orgUser(), repo(orgOwned, private),
			teams(map[permission.Unit]permission.AccessMode{code: write, issues: read}), write, on(write, code).with(read, issues)},
		{"team member, public repo floors at read", orgUser(), repo(orgOwned),
			teams(map[permission.Unit]permission.AccessMode{code: write}), write, everywhere(read).with(write, code)},
		{"team member, private repo of private org", orgUser(), repo(orgOwned, private, ownerVis(privateVis)),
			teams(map[permission.Unit]permission.AccessMode{code: read, pulls: read}), read, on(read, code, pulls)},
		{"team unit on a disabled unit stays none", orgUser(), repo(orgOwned, private, units(code, issues)),
			teams(map[permission.Unit]permission.AccessMode{code: write, pulls: write, actions: write}), write, on(write, code)},
		{"team and collaborator take the higher", orgUser(), repo(orgOwned, private),
			permission.Relations{IsOrgMember: true, CollaboratorMode: read, TeamUnits: map[permission.Unit]permission.AccessMode{code: write}}, write, everywhere(read).with(write, code)},
		{"admin collaborator beats read team", orgUser(), repo(orgOwned, private),
			permission.Relations{IsOrgMember: true, CollaboratorMode: admin, TeamUnits: map[permission.Unit]permission.AccessMode{code: read}}, admin, everywhere(admin)},
		{"admin team makes an owner", orgUser(), repo(orgOwned, private),
			teams(map[permission.Unit]permission.AccessMode{code: admin, issues: admin}), owner, everywhere(owner)},
		{"collaborator of an org repo, not a member", plainUser(), repo(orgOwned, private, ownerVis(privateVis)), collab(write), write, everywhere(write)},
		{"collaborator read of a limited org", plainUser(), repo(orgOwned, private, ownerVis(limited)), collab(read), read, everywhere(read)},
		{"team member, archived repo keeps write", orgUser(), repo(orgOwned, archived),
			teams(map[permission.Unit]permission.AccessMode{code: write}), write, everywhere(read).with(write, code)},

		// workflow runs
		{"run on its own repo", workflowRun(repoID, false), repo(private), permission.Relations{}, write, everywhere(write)},
		{"run from a fork", workflowRun(repoID, true), repo(private), permission.Relations{}, read, everywhere(read)},
		{"run on another repo", workflowRun(otherRepoID, false), repo(), permission.Relations{}, none, everywhere(none)},
		{"run without a repo", workflowRun(0, false), repo(func(r *permission.Repo) { r.ID = 0 }), permission.Relations{}, none, everywhere(none)},
		{"run on its own archived repo", workflowRun(repoID, false), repo(archived), permission.Relations{}, write, everywhere(write)},
		{"run, disabled units", workflowRun(repoID, false), repo(units(code, actions)), permission.Relations{}, write, on(write, code, actions)},
		{"run ignores relations", workflowRun(otherRepoID, false), repo(), permission.Relations{IsOwner: true}, none, everywhere(none)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			p := permission.Compute(tc.actor, tc.repo, tc.rel)
			is.Equal(p.Mode, tc.wantMode)
			is.Equal(gridOf(p), tc.want)
		})
	}
}

func TestPermissionMethods(t *testing.T) {
	cases := []struct {
		name                 string
		p                    permission.Permission
		readCode, writeCode  bool
		isAdmin, isOwner     bool
		anyAccess            bool
		readIssues, writeWik bool
	}{
		{name: "zero"},
		{name: "read", p: permission.Permission{Mode: read, Units: map[permission.Unit]permission.AccessMode{code: read, issues: read}},
			readCode: true, anyAccess: true, readIssues: true},
		{name: "unit only", p: permission.Permission{Units: map[permission.Unit]permission.AccessMode{issues: read}},
			anyAccess: true, readIssues: true},
		{name: "mode only, no units", p: permission.Permission{Mode: read}, anyAccess: true},
		{name: "write code", p: permission.Permission{Mode: write, Units: map[permission.Unit]permission.AccessMode{code: write}},
			readCode: true, writeCode: true, anyAccess: true},
		{name: "admin", p: permission.Permission{Mode: admin, Units: map[permission.Unit]permission.AccessMode{code: admin, wiki: admin}},
			readCode: true, writeCode: true, isAdmin: true, anyAccess: true, writeWik: true},
		{name: "owner", p: permission.Permission{Mode: owner, Units: map[permission.Unit]permission.AccessMode{code: owner}},
			readCode: true, writeCode: true, isAdmin: true, isOwner: true, anyAccess: true},
		{name: "none units", p: permission.Permission{Units: map[permission.Unit]permission.AccessMode{code: none}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.p.CanRead(code), tc.readCode)
			is.Equal(tc.p.CanWrite(code), tc.writeCode)
			is.Equal(tc.p.IsAdmin(), tc.isAdmin)
			is.Equal(tc.p.IsOwner(), tc.isOwner)
			is.Equal(tc.p.HasAnyAccess(), tc.anyAccess)
			is.Equal(tc.p.CanRead(issues), tc.readIssues)
			is.Equal(tc.p.CanWrite(wiki), tc.writeWik)
			is.Equal(tc.p.UnitMode(releases), none)
		})
	}
}

func TestAccessModeString(t *testing.T) {
	cases := []struct {
		m    permission.AccessMode
		want string
	}{
		{none, "none"}, {read, "read"}, {write, "write"}, {admin, "admin"}, {owner, "owner"},
		{permission.AccessMode(9), "AccessMode(9)"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.m.String(), tc.want)
		})
	}
}

func TestParseUnit(t *testing.T) {
	cases := []struct {
		in      string
		want    permission.Unit
		wantErr bool
	}{
		{in: "code", want: code},
		{in: "repo.code", want: code},
		{in: " Issues ", want: issues},
		{in: "pulls", want: pulls},
		{in: "pull requests", want: pulls},
		{in: "pull_requests", want: pulls},
		{in: "releases", want: releases},
		{in: "wiki", want: wiki},
		{in: "ext_wiki", want: permission.UnitExtWiki},
		{in: "external wiki", want: permission.UnitExtWiki},
		{in: "ext_issues", want: permission.UnitExtIssues},
		{in: "external tracker", want: permission.UnitExtIssues},
		{in: "projects", want: permission.UnitProjects},
		{in: "packages", want: permission.UnitPackages},
		{in: "actions", want: actions},
		{in: "", wantErr: true},
		{in: "settings", wantErr: true},
		{in: "repo.", wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			got, err := permission.ParseUnit(tc.in)
			if tc.wantErr {
				is.True(err != nil)
				return
			}
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}
}

func TestUnitsTable(t *testing.T) {
	is := is.New(t)
	all := permission.AllUnits()
	is.Equal(len(all), 10)
	seen := map[permission.Unit]bool{}
	for _, u := range all {
		is.True(!seen[u])
		seen[u] = true
		back, err := permission.ParseUnit(u.Short())
		is.NoErr(err)
		is.Equal(back, u)
	}
	is.Equal(permission.UnitPulls.Short(), "pulls")
	is.Equal(string(permission.UnitExtIssues), "repo.ext_issues")
}

func TestRepoHasUnit(t *testing.T) {
	is := is.New(t)
	r := repo(units(code, wiki))
	is.True(r.HasUnit(code))
	is.True(r.HasUnit(wiki))
	is.True(!r.HasUnit(issues))
	is.True(!repo(units()).HasUnit(code))
}

func TestActorHelpers(t *testing.T) {
	cases := []struct {
		name     string
		a        permission.Actor
		signedIn bool
		isAdmin  bool
	}{
		{"anonymous", anonymous(), false, false},
		{"anonymous claiming admin", permission.Actor{IsSiteAdmin: true}, false, false},
		{"user", plainUser(), true, false},
		{"admin", siteAdmin(), true, true},
		{"workflow run", workflowRun(repoID, false), true, false},
		{"workflow run claiming admin", permission.Actor{Kind: permission.ActorWorkflowRun, IsSiteAdmin: true}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.a.SignedIn(), tc.signedIn)
			is.Equal(tc.a.IsAdmin(), tc.isAdmin)
		})
	}
}
