package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// orgMsgOwner and its siblings are the access codes' refusals on org routes.
const (
	orgMsgOwner    = "Must be an organization owner"
	orgMsgMember   = "Must be an organization member"
	orgMsgNoToken  = "token is required"
	orgMsgNotFound = "organization does not exist"
)

// orgCreate makes an organisation as the client's user, failing on error.
func orgCreate(t *testing.T, c *gitea.Client, name string, vis gitea.VisibleType) *gitea.Organization {
	t.Helper()
	o, _, err := c.CreateOrg(gitea.CreateOrgOption{Name: name, FullName: "The " + name, Visibility: vis})
	if err != nil {
		t.Fatalf("create org %s: %v", name, err)
	}
	return o
}

// orgTeam makes a team in org as the client's user and adds members.
func orgTeam(t *testing.T, c *gitea.Client, org string, opt gitea.CreateTeamOption, members ...string) *gitea.Team {
	t.Helper()
	team, _, err := c.CreateTeam(org, opt)
	if err != nil {
		t.Fatalf("create team %s: %v", opt.Name, err)
	}
	for _, m := range members {
		if _, err := c.AddTeamMember(team.ID, m); err != nil {
			t.Fatalf("add %s to team %s: %v", m, opt.Name, err)
		}
	}
	return team
}

// orgNames lists the organisations' names.
func orgNames(list []*gitea.Organization) []string {
	out := make([]string, 0, len(list))
	for _, o := range list {
		out = append(out, o.UserName)
	}
	return out
}

// orgGetNames decodes a raw organisation listing into names.
func orgGetNames(t *testing.T, r testserver.Response) []string {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var list []*gitea.Organization
	r.Decode(t, &list)
	return orgNames(list)
}

// orgUserNames decodes a raw user listing into logins.
func orgUserNames(t *testing.T, r testserver.Response) []string {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var list []*gitea.User
	r.Decode(t, &list)
	return logins(list)
}

func TestOrgsLifecycle(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)

		yes := true
		o, resp, err := aliceC.CreateOrg(gitea.CreateOrgOption{Name: "Acme", FullName: "Acme Inc", Description: "d",
			Website: "https://acme.example", Location: "Lyon", Visibility: gitea.VisibleTypePublic, RepoAdminChangeTeamAccess: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(o.UserName, "Acme")
		is.Equal(o.FullName, "Acme Inc")
		is.Equal(o.Website, "https://acme.example")
		is.Equal(o.Visibility, "public")
		is.True(o.RepoAdminChangeTeamAccess)

		got, _, err := srv.Client().GetOrg("acme") // anonymous, case-insensitive
		is.NoErr(err)
		is.Equal(got.ID, o.ID)
		assertAPIError(t, srv.Do("GET", "/orgs/nope", nil), http.StatusNotFound, orgMsgNotFound)

		// Creation: 401, 422 per field, 400, one namespace with users, 403.
		assertAPIError(t, srv.Do("POST", "/orgs", map[string]any{"username": "x"}), http.StatusUnauthorized, orgMsgNoToken)
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"username": "acme"}, "UserName"},
			{map[string]any{"username": "BOB"}, "UserName"},
			{map[string]any{"username": "a b"}, "UserName"},
			{map[string]any{"username": ""}, "UserName"},
			{map[string]any{"username": "ok", "visibility": "secret"}, "Visibility"},
			{map[string]any{"username": "ok", "website": "nope"}, "Website"},
			{map[string]any{"username": "ok", "full_name": strings.Repeat("x", 101)}, "FullName"},
		} {
			assertInvalid(t, srv.Do("POST", "/orgs", tc.body, basicAs("alice")...), tc.field)
		}
		is.Equal(srv.Do("POST", "/orgs", "{", basicAs("alice")...).Status, http.StatusBadRequest)
		no := false
		_, err = srv.AdminClient().AdminEditUser("bob", gitea.EditUserOption{LoginName: "bob", AllowCreateOrganization: &no})
		is.NoErr(err)
		r := srv.Do("POST", "/orgs", map[string]any{"username": "bobs"}, basicAs("bob")...)
		is.Equal(r.Status, http.StatusForbidden)

		// Edit: T, OO; 422; site admin passes.
		assertAPIError(t, srv.Do("PATCH", "/orgs/acme", map[string]any{"description": "x"}), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("PATCH", "/orgs/acme", map[string]any{"description": "x"}, basicAs("bob")...), http.StatusForbidden, orgMsgOwner)
		assertAPIError(t, srv.Do("PATCH", "/orgs/nope", map[string]any{"description": "x"}, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)
		assertInvalid(t, srv.Do("PATCH", "/orgs/acme", map[string]any{"website": "ftp://x"}, basicAs("alice")...), "Website")
		assertInvalid(t, srv.Do("PATCH", "/orgs/acme", map[string]any{"visibility": "hidden"}, basicAs("alice")...), "Visibility")
		r = srv.Do("PATCH", "/orgs/acme", map[string]any{"description": "new", "visibility": "limited",
			"repo_admin_change_team_access": false}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var edited gitea.Organization
		r.Decode(t, &edited)
		is.Equal(edited.Description, "new")
		is.Equal(edited.Visibility, "limited")
		is.Equal(edited.Location, "Lyon") // absent fields stay
		is.True(!edited.RepoAdminChangeTeamAccess)
		_, err = srv.AdminClient().EditOrg("acme", gitea.EditOrgOption{FullName: "By admin", Visibility: gitea.VisibleTypePublic,
			RepoAdminChangeTeamAccess: &yes})
		is.NoErr(err)
		got, _, err = aliceC.GetOrg("acme")
		is.NoErr(err)
		is.Equal(got.FullName, "By admin")

		// Repositories: owners create through both routes; others may not.
		repo, resp, err := aliceC.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "code", Private: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(repo.Owner.UserName, "Acme")
		is.True(repo.Permissions.Admin)
		r = srv.Do("POST", "/org/acme/repos", map[string]any{"name": "legacy"}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		assertAPIError(t, srv.Do("POST", "/orgs/acme/repos", map[string]any{"name": "x"}, basicAs("bob")...),
			http.StatusForbidden, "Given user is not allowed to create repository in organization.")
		assertAPIError(t, srv.Do("POST", "/org/acme/repos", map[string]any{"name": "x"}), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("POST", "/orgs/nope/repos", map[string]any{"name": "x"}, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)
		assertInvalid(t, srv.Do("POST", "/orgs/acme/repos", map[string]any{"name": "bad name"}, basicAs("alice")...), "Name")
		is.Equal(srv.Do("POST", "/orgs/acme/repos", map[string]any{"name": "code"}, basicAs("alice")...).Status, http.StatusConflict)
		r = srv.Do("POST", "/admin/users/alice/orgs", map[string]any{"username": "adminmade"}, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusCreated)

		list, _, err := aliceC.ListOrgRepos("acme", gitea.ListOrgReposOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
		anonList, _, err := srv.Client().ListOrgRepos("acme", gitea.ListOrgReposOptions{})
		is.NoErr(err)
		is.Equal(len(anonList), 1) // the private one is hidden
		assertAPIError(t, srv.Do("GET", "/orgs/nope/repos", nil), http.StatusNotFound, orgMsgNotFound)

		// Rename: T, OO; 422 on a taken name.
		assertAPIError(t, srv.Do("POST", "/orgs/adminmade/rename", map[string]any{"new_name": "x"}, basicAs("bob")...), http.StatusForbidden, orgMsgOwner)
		assertInvalid(t, srv.Do("POST", "/orgs/adminmade/rename", map[string]any{"new_name": "bob"}, basicAs("alice")...), "NewUsername")
		_, err = aliceC.RenameOrg("adminmade", gitea.RenameOrgOption{NewName: "renamed"})
		is.NoErr(err)
		_, _, err = aliceC.GetOrg("renamed")
		is.NoErr(err)
		// The old name redirects to the new one, path and query kept.
		r = srv.Do("GET", "/orgs/adminmade/members?page=1", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/orgs/renamed/members?page=1")

		// Delete: T, OO; 422 while it owns repositories; then 204 and gone.
		assertAPIError(t, srv.Do("DELETE", "/orgs/acme", nil, basicAs("bob")...), http.StatusForbidden, orgMsgOwner)
		assertInvalid(t, srv.Do("DELETE", "/orgs/acme", nil, basicAs("alice")...), "org")
		for _, name := range []string{"code", "legacy"} {
			_, err := aliceC.DeleteRepo("acme", name)
			is.NoErr(err)
		}
		resp, err = aliceC.DeleteOrg("acme")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", "/orgs/acme", nil), http.StatusNotFound, orgMsgNotFound)
		assertAPIError(t, srv.Do("DELETE", "/orgs/acme", nil, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)

		// Admin listings: T, SA.
		assertAPIError(t, srv.Do("GET", "/admin/orgs", nil, basicAs("alice")...), http.StatusForbidden, "user should be the site admin")
		all, _, err := srv.AdminClient().AdminListOrgs(gitea.AdminListOrgsOptions{})
		is.NoErr(err)
		is.Equal(orgNames(all), []string{"renamed"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/admin/users/alice/orgs", nil, adminHeader(srv)...)), []string{"renamed"})
		assertAPIError(t, srv.Do("GET", "/admin/users/alice/orgs", nil, basicAs("alice")...), http.StatusForbidden, "user should be the site admin")
		is.Equal(srv.Do("POST", "/admin/users/nobody/orgs", map[string]any{"username": "zz"}, adminHeader(srv)...).Status, http.StatusNotFound)
	})
}

func TestOrgsMembersAndTeams(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)

		// Teams: T, OM, OO on creation; 422s.
		teamBody := map[string]any{"name": "dev", "permission": "write"}
		assertAPIError(t, srv.Do("POST", "/orgs/acme/teams", teamBody), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("POST", "/orgs/acme/teams", teamBody, basicAs("carol")...), http.StatusForbidden, orgMsgMember)
		assertInvalid(t, srv.Do("POST", "/orgs/acme/teams", map[string]any{"name": "a b", "permission": "read"}, basicAs("alice")...), "name")
		assertInvalid(t, srv.Do("POST", "/orgs/acme/teams", map[string]any{"name": "x", "permission": "owner"}, basicAs("alice")...), "permission")
		assertInvalid(t, srv.Do("POST", "/orgs/acme/teams", map[string]any{"name": "Owners", "permission": "read"}, basicAs("alice")...), "name")
		assertInvalid(t, srv.Do("POST", "/orgs/acme/teams", map[string]any{"name": "x", "units_map": map[string]string{"repo.nope": "read"}}, basicAs("alice")...), "units_map")
		dev := orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "dev", Permission: gitea.AccessModeWrite,
			UnitsMap: map[string]string{"repo.code": "write", "repo.issues": "read"}}, "bob")
		is.Equal(dev.UnitsMap["repo.code"], "write")
		is.Equal(string(dev.Permission), "read") // the lowest of the units, as Gitea computes it
		is.Equal(dev.Organization.UserName, "acme")
		assertInvalid(t, srv.Do("POST", "/orgs/acme/teams", map[string]any{"name": "DEV", "permission": "read"}, basicAs("alice")...), "name")
		// bob is a member now, not an owner.
		assertAPIError(t, srv.Do("POST", "/orgs/acme/teams", teamBody, basicAs("bob")...), http.StatusForbidden, orgMsgOwner)

		// Team routes: TM; OO answers 404 on them.
		teamPath := fmt.Sprintf("/teams/%d", dev.ID)
		got, _, err := bobC.GetTeam(dev.ID)
		is.NoErr(err)
		is.Equal(got.Name, "dev")
		assertAPIError(t, srv.Do("GET", teamPath, nil), http.StatusUnauthorized, orgMsgNoToken)
		is.Equal(srv.Do("GET", teamPath, nil, basicAs("carol")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/teams/999999", nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/teams/x", nil, basicAs("alice")...).Status, http.StatusBadRequest)
		is.Equal(srv.Do("PUT", teamPath+"/members/carol", nil, basicAs("bob")...).Status, http.StatusNotFound) // member, not owner
		is.Equal(srv.Do("GET", teamPath+"/members/bob", nil, basicAs("bob")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", teamPath+"/members/carol", nil, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PUT", teamPath+"/members/nobody", nil, basicAs("alice")...).Status, http.StatusNotFound)

		// Members: everybody to members, public ones to others.
		assertAPIError(t, srv.Do("GET", "/orgs/acme/members", nil), http.StatusUnauthorized, orgMsgNoToken)
		is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/acme/members", nil, basicAs("bob")...)), []string{"alice", "bob"})
		is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/acme/members", nil, adminHeader(srv)...)), []string{"alice", "bob"})
		is.Equal(len(orgUserNames(t, srv.Do("GET", "/orgs/acme/members", nil, basicAs("carol")...))), 0)
		is.Equal(srv.Do("GET", "/orgs/acme/members/bob", nil, basicAs("alice")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/orgs/acme/members/carol", nil, basicAs("alice")...).Status, http.StatusNotFound)
		r := srv.Do("GET", "/orgs/acme/members/bob", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusFound) // outsiders are sent to the public check
		is.True(strings.HasSuffix(r.Header.Get("Location"), "/api/v1/orgs/acme/public_members/bob"))

		// Public members: T, OM on changes; only oneself.
		is.Equal(len(orgUserNames(t, srv.Do("GET", "/orgs/acme/public_members", nil))), 0)
		assertAPIError(t, srv.Do("PUT", "/orgs/acme/public_members/bob", nil), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("PUT", "/orgs/acme/public_members/carol", nil, basicAs("carol")...), http.StatusForbidden, orgMsgMember)
		assertAPIError(t, srv.Do("PUT", "/orgs/acme/public_members/alice", nil, basicAs("bob")...), http.StatusForbidden, "Cannot publicize another member")
		_, err = bobC.SetPublicOrgMembership("acme", "bob", true)
		is.NoErr(err)
		is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/acme/public_members", nil)), []string{"bob"})
		is.Equal(srv.Do("GET", "/orgs/acme/public_members/bob", nil).Status, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/orgs/acme/public_members/alice", nil).Status, http.StatusNotFound)
		is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/acme/members", nil, basicAs("carol")...)), []string{"bob"})

		// Organisations of a user.
		is.Equal(orgGetNames(t, srv.Do("GET", "/user/orgs", nil, basicAs("bob")...)), []string{"acme"})
		assertAPIError(t, srv.Do("GET", "/user/orgs", nil), http.StatusUnauthorized, orgMsgNoToken)
		is.Equal(orgGetNames(t, srv.Do("GET", "/users/bob/orgs", nil, basicAs("carol")...)), []string{"acme"})
		is.Equal(len(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, basicAs("carol")...))), 0) // concealed
		is.Equal(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, adminHeader(srv)...)), []string{"acme"})
		is.Equal(srv.Do("GET", "/users/nobody/orgs", nil, basicAs("carol")...).Status, http.StatusNotFound)
		resp, err := bobC.SetPublicOrgMembership("acme", "bob", false)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(len(orgGetNames(t, srv.Do("GET", "/users/bob/orgs", nil, basicAs("carol")...))), 0)

		// Permissions of a user in the organisation.
		perm, _, err := srv.Client(gitea.SetBasicAuth("carol", userPassword)).GetOrgPermissions("acme", "bob")
		is.NoErr(err)
		is.Equal(*perm, gitea.OrgPermissions{CanRead: true}) // dev is a read team: its lowest unit
		perm, _, err = bobC.GetOrgPermissions("acme", "alice")
		is.NoErr(err)
		is.Equal(*perm, gitea.OrgPermissions{IsOwner: true, IsAdmin: true, CanWrite: true, CanRead: true, CanCreateRepository: true})
		assertAPIError(t, srv.Do("GET", "/users/bob/orgs/acme/permissions", nil), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("GET", "/users/bob/orgs/nope/permissions", nil, basicAs("bob")...), http.StatusNotFound, orgMsgNotFound)

		// Removal: T, OO; the last owner stays (409, also from the Owners team).
		assertAPIError(t, srv.Do("DELETE", "/orgs/acme/members/alice", nil, basicAs("bob")...), http.StatusForbidden, orgMsgOwner)
		is.Equal(srv.Do("DELETE", "/orgs/acme/members/alice", nil, basicAs("alice")...).Status, http.StatusConflict)
		is.Equal(srv.Do("DELETE", "/orgs/acme/members/carol", nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", teamPath+"/members/bob", nil, basicAs("bob")...).Status, http.StatusNotFound) // OO on a team route
		resp, err = aliceC.DeleteOrgMembership("acme", "bob")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/orgs/acme/members/bob", nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", teamPath, nil, basicAs("bob")...).Status, http.StatusNotFound) // no longer in the team
	})
}
