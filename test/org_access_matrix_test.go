package test

import (
	"fmt"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestOrgAccessMatrix fills the audit's gaps on catalogue 4.8: a site admin
// who belongs to no team on the team routes (TM, OM, OO), a member of an
// admin team who is no owner (OM yes, OO no), a member of a team allowed to
// create repositories, and public-only tokens on a limited organisation's
// routes.
func TestOrgAccessMatrix(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		for _, n := range []string{"boss", "maker", "plain", "outsider"} {
			newAccount(t, srv, n, gitea.VisibleTypePublic)
		}
		orgCreate(t, aliceC, "priv", gitea.VisibleTypePrivate)
		if _, _, err := aliceC.CreateOrgRepo("priv", gitea.CreateRepoOption{Name: "code", Private: true}); err != nil {
			t.Fatalf("create priv/code: %v", err)
		}
		admins := orgTeam(t, aliceC, "priv", gitea.CreateTeamOption{Name: "admins", Permission: gitea.AccessModeAdmin}, "boss")
		makers := orgTeam(t, aliceC, "priv", gitea.CreateTeamOption{Name: "makers", Permission: gitea.AccessModeWrite, CanCreateOrgRepo: true}, "maker")
		orgTeam(t, aliceC, "priv", gitea.CreateTeamOption{Name: "plain", Permission: gitea.AccessModeRead}, "plain")
		admin := adminHeader(srv)

		t.Run("site admin on team routes", func(t *testing.T) {
			is := is.New(t)
			teamPath := fmt.Sprintf("/teams/%d", makers.ID)
			var team gitea.Team
			blockWant(t, srv, "GET", teamPath, nil, http.StatusOK, "", admin...).Decode(t, &team)
			is.Equal(team.Name, "makers")
			is.True(team.CanCreateOrgRepo)
			is.Equal(orgUserNames(t, srv.Do("GET", teamPath+"/members", nil, admin...)), []string{"maker"})
			blockWant(t, srv, "GET", teamPath+"/members/maker", nil, http.StatusOK, "", admin...)
			blockWant(t, srv, "PUT", teamPath+"/members/outsider", nil, http.StatusNoContent, "", admin...)
			blockWant(t, srv, "DELETE", teamPath+"/members/outsider", nil, http.StatusNoContent, "", admin...)
			blockWant(t, srv, "PUT", teamPath+"/repos/priv/code", nil, http.StatusNoContent, "", admin...)
			var repos []*gitea.Repository
			blockWant(t, srv, "GET", teamPath+"/repos", nil, http.StatusOK, "", admin...).Decode(t, &repos)
			is.Equal(len(repos), 1)
			blockWant(t, srv, "GET", teamPath+"/repos/priv/code", nil, http.StatusOK, "", admin...)
			blockWant(t, srv, "PATCH", teamPath, map[string]any{"name": "makers", "description": "by admin"}, http.StatusOK, "", admin...).Decode(t, &team)
			is.Equal(team.Description, "by admin")
			var teams []*gitea.Team
			blockWant(t, srv, "GET", "/orgs/priv/teams", nil, http.StatusOK, "", admin...).Decode(t, &teams)
			is.Equal(len(teams), 4) // Owners, admins, makers, plain
			blockWant(t, srv, "GET", "/orgs/priv/teams/search?q=make", nil, http.StatusOK, "", admin...)
			var made gitea.Team
			blockWant(t, srv, "POST", "/orgs/priv/teams", map[string]any{"name": "temp", "permission": "read"}, http.StatusCreated, "", admin...).Decode(t, &made)
			blockWant(t, srv, "DELETE", fmt.Sprintf("/teams/%d", made.ID), nil, http.StatusNoContent, "", admin...)
			is.Equal(srv.Do("GET", fmt.Sprintf("/teams/%d", made.ID), nil, admin...).Status, http.StatusNotFound)
			// The admin is no member: the organisation's private membership
			// listing is still open to it.
			is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/priv/members", nil, admin...)), []string{"alice", "boss", "maker", "plain"})
		})

		t.Run("admin team member is no owner", func(t *testing.T) {
			is := is.New(t)
			boss := basicAs("boss")
			assertAPIError(t, srv.Do("PATCH", "/orgs/priv", map[string]any{"description": "x"}, boss...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("POST", "/orgs/priv/teams", map[string]any{"name": "mine", "permission": "read"}, boss...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("DELETE", "/orgs/priv/members/plain", nil, boss...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("POST", "/orgs/priv/rename", map[string]any{"new_name": "x"}, boss...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("DELETE", "/orgs/priv", nil, boss...), http.StatusForbidden, orgMsgOwner)
			// OO on its own team's routes answers 404 (the team is not revealed).
			own := fmt.Sprintf("/teams/%d", admins.ID)
			is.Equal(srv.Do("PATCH", own, map[string]any{"name": "admins2"}, boss...).Status, http.StatusNotFound)
			is.Equal(srv.Do("PUT", own+"/members/plain", nil, boss...).Status, http.StatusNotFound)
			// OM: teams are listed; TM: its own team is readable.
			var teams []*gitea.Team
			blockWant(t, srv, "GET", "/orgs/priv/teams", nil, http.StatusOK, "", boss...).Decode(t, &teams)
			is.Equal(len(teams), 4)
			blockWant(t, srv, "GET", own, nil, http.StatusOK, "", boss...)
			var perm gitea.OrgPermissions
			blockWant(t, srv, "GET", "/users/boss/orgs/priv/permissions", nil, http.StatusOK, "", boss...).Decode(t, &perm)
			is.Equal(perm, gitea.OrgPermissions{IsAdmin: true, CanWrite: true, CanRead: true})
		})

		t.Run("creating repositories", func(t *testing.T) {
			is := is.New(t)
			var r gitea.Repository
			blockWant(t, srv, "POST", "/orgs/priv/repos", map[string]any{"name": "by-maker"}, http.StatusCreated, "", basicAs("maker")...).Decode(t, &r)
			is.Equal(r.FullName, "priv/by-maker")
			var perm gitea.OrgPermissions
			blockWant(t, srv, "GET", "/users/maker/orgs/priv/permissions", nil, http.StatusOK, "", basicAs("maker")...).Decode(t, &perm)
			is.True(perm.CanCreateRepository)
			for _, who := range []string{"plain", "boss"} {
				assertAPIError(t, srv.Do("POST", "/orgs/priv/repos", map[string]any{"name": "by-" + who}, basicAs(who)...),
					http.StatusForbidden, "Given user is not allowed to create repository in organization.")
			}
			// An outsider does not see the private organisation at all.
			assertAPIError(t, srv.Do("POST", "/orgs/priv/repos", map[string]any{"name": "x"}, basicAs("outsider")...), http.StatusNotFound, orgMsgNotFound)
			blockWant(t, srv, "POST", "/orgs/priv/repos", map[string]any{"name": "by-admin"}, http.StatusCreated, "", admin...)
		})

		t.Run("outsider and anonymous on a private organisation", func(t *testing.T) {
			is := is.New(t)
			for _, path := range []string{"/orgs/priv", "/orgs/priv/repos", "/orgs/priv/members", "/orgs/priv/public_members",
				"/orgs/priv/teams", "/orgs/priv/teams/search", "/orgs/priv/public_members/alice"} {
				is.Equal(srv.Do("GET", path, nil, basicAs("outsider")...).Status, http.StatusNotFound) // outsider
			}
			for _, path := range []string{"/orgs/priv", "/orgs/priv/repos", "/orgs/priv/public_members", "/orgs/priv/public_members/alice"} {
				is.Equal(srv.Do("GET", path, nil).Status, http.StatusNotFound) // anonymous
			}
			is.Equal(srv.Do("GET", fmt.Sprintf("/teams/%d", makers.ID), nil, basicAs("outsider")...).Status, http.StatusNotFound)
			is.Equal(srv.Do("GET", fmt.Sprintf("/teams/%d/repos", makers.ID), nil, basicAs("plain")...).Status, http.StatusForbidden) // member, not of the team
		})

		t.Run("limited organisation and tokens", func(t *testing.T) {
			is := is.New(t)
			orgCreate(t, aliceC, "lim", gitea.VisibleTypeLimited)
			if _, _, err := aliceC.CreateOrgRepo("lim", gitea.CreateRepoOption{Name: "open"}); err != nil {
				t.Fatalf("create lim/open: %v", err)
			}
			for _, path := range []string{"/orgs/lim", "/orgs/lim/repos", "/orgs/lim/public_members"} {
				is.Equal(srv.Do("GET", path, nil).Status, http.StatusNotFound)                   // anonymous
				is.Equal(srv.Do("GET", path, nil, basicAs("outsider")...).Status, http.StatusOK) // any signed-in caller
			}
			public := []string{"Authorization", "token " + srv.CreateToken("outsider", userPassword, "public-only", "read:organization")}
			for _, path := range []string{"/orgs/lim", "/orgs/lim/repos", "/orgs/lim/public_members"} {
				assertAPIError(t, srv.Do("GET", path, nil, public...), http.StatusForbidden, "token scope is limited to public orgs")
			}
			is.Equal(orgGetNames(t, srv.Do("GET", "/admin/orgs", nil, admin...)), []string{"lim", "priv"})
			assertAPIError(t, srv.Do("GET", "/admin/orgs", nil), http.StatusUnauthorized, orgMsgNoToken)
		})
	})
}
