package test

import (
	"fmt"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// orgTeamNames lists the teams' names.
func orgTeamNames(list []*gitea.Team) []string {
	out := make([]string, 0, len(list))
	for _, t := range list {
		out = append(out, t.Name)
	}
	return out
}

func TestOrgsTeamManagement(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
		for _, r := range []gitea.CreateRepoOption{{Name: "r1", Private: true}, {Name: "r2"}} {
			if _, _, err := aliceC.CreateOrgRepo("acme", r); err != nil {
				t.Fatalf("create %s: %v", r.Name, err)
			}
		}
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "personal"})
		dev := orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "dev", Permission: gitea.AccessModeWrite}, "bob")
		docs := orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "docs", Description: "the handbook", Permission: gitea.AccessModeRead})
		devPath, docsPath := fmt.Sprintf("/teams/%d", dev.ID), fmt.Sprintf("/teams/%d", docs.ID)

		// Listing and search: T, OM.
		list, _, err := bobC.ListOrgTeams("acme", gitea.ListTeamsOptions{})
		is.NoErr(err)
		is.Equal(orgTeamNames(list), []string{"dev", "docs", "Owners"})
		assertAPIError(t, srv.Do("GET", "/orgs/acme/teams", nil), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("GET", "/orgs/acme/teams", nil, basicAs("carol")...), http.StatusForbidden, orgMsgMember)
		assertAPIError(t, srv.Do("GET", "/orgs/nope/teams", nil, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)
		found, _, err := aliceC.SearchOrgTeams("acme", &gitea.SearchTeamsOptions{Query: "HANDBOOK", IncludeDescription: true})
		is.NoErr(err)
		is.Equal(orgTeamNames(found), []string{"docs"})
		var env struct {
			Data []*gitea.Team `json:"data"`
			OK   bool          `json:"ok"`
		}
		r := srv.Do("GET", "/orgs/acme/teams/search?q=handbook&include_desc=false", nil, basicAs("alice")...)
		r.Decode(t, &env)
		is.True(env.OK)
		is.Equal(len(env.Data), 0)
		is.Equal(srv.Do("GET", "/orgs/acme/teams/search?include_desc=maybe", nil, basicAs("alice")...).Status, http.StatusBadRequest)
		assertAPIError(t, srv.Do("GET", "/orgs/acme/teams/search", nil, basicAs("carol")...), http.StatusForbidden, orgMsgMember)

		// Edit: T, OO, TM — 404 for everyone but owners on a team route.
		desc := "builds it"
		is.Equal(srv.Do("PATCH", devPath, map[string]any{"name": "x"}, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PATCH", devPath, map[string]any{"name": "x"}, basicAs("carol")...).Status, http.StatusNotFound)
		assertAPIError(t, srv.Do("PATCH", devPath, map[string]any{"name": "x"}), http.StatusUnauthorized, orgMsgNoToken)
		_, err = aliceC.EditTeam(dev.ID, gitea.EditTeamOption{Name: "developers", Description: &desc, Permission: gitea.AccessModeAdmin})
		is.NoErr(err)
		got, _, err := bobC.GetTeam(dev.ID)
		is.NoErr(err)
		is.Equal(got.Name, "developers")
		is.Equal(got.Description, "builds it")
		is.Equal(string(got.Permission), "admin")
		is.Equal(got.UnitsMap["repo.code"], "admin")
		assertInvalid(t, srv.Do("PATCH", devPath, map[string]any{"name": "docs"}, basicAs("alice")...), "name")
		assertInvalid(t, srv.Do("PATCH", devPath, map[string]any{"permission": "root"}, basicAs("alice")...), "permission")
		assertInvalid(t, srv.Do("PATCH", devPath, map[string]any{"name": "Owners"}, basicAs("alice")...), "name")
		owners := list[2]
		r = srv.Do("PATCH", fmt.Sprintf("/teams/%d", owners.ID), map[string]any{"name": "Bosses", "description": "run it", "permission": "read"}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var ownersNow gitea.Team
		r.Decode(t, &ownersNow)
		is.Equal(ownersNow.Name, "Owners") // the Owners team keeps its name and mode
		is.Equal(string(ownersNow.Permission), "owner")
		is.Equal(ownersNow.Description, "run it")

		// Members and repositories of a team: T, TM.
		members, _, err := bobC.ListTeamMembers(dev.ID, gitea.ListTeamMembersOptions{})
		is.NoErr(err)
		is.Equal(logins(members), []string{"bob"})
		is.Equal(srv.Do("GET", devPath+"/members", nil, basicAs("carol")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", docsPath+"/members", nil, basicAs("bob")...).Status, http.StatusForbidden) // a member, not of this team
		repos, _, err := bobC.ListTeamRepositories(dev.ID, gitea.ListTeamRepositoriesOptions{})
		is.NoErr(err)
		is.Equal(len(repos), 0)
		_, err = aliceC.AddTeamRepository(dev.ID, "acme", "r1")
		is.NoErr(err)
		repos, _, err = bobC.ListTeamRepositories(dev.ID, gitea.ListTeamRepositoriesOptions{})
		is.NoErr(err)
		is.Equal(len(repos), 1)
		is.True(repos[0].Permissions.Admin) // an admin team
		repo, _, err := bobC.GetTeamRepository(dev.ID, "acme", "r1")
		is.NoErr(err)
		is.Equal(repo.Name, "r1")
		is.Equal(srv.Do("GET", devPath+"/repos/acme/r2", nil, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", devPath+"/repos/acme/nothing", nil, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", docsPath+"/repos/acme/r2", nil, basicAs("alice")...).Status, http.StatusNotFound) // never given
		is.Equal(srv.Do("DELETE", devPath+"/repos/acme/r1", nil, basicAs("carol")...).Status, http.StatusNotFound)
		resp, err := bobC.RemoveTeamRepository(dev.ID, "acme", "r1") // bob administers r1 through the team
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/repos/acme/r1", nil, basicAs("bob")...).Status, http.StatusNotFound) // private again to bob

		// The caller's teams across organisations.
		mine, _, err := bobC.ListMyTeams(&gitea.ListTeamsOptions{})
		is.NoErr(err)
		is.Equal(orgTeamNames(mine), []string{"developers"})
		is.Equal(mine[0].Organization.UserName, "acme")
		assertAPIError(t, srv.Do("GET", "/user/teams", nil), http.StatusUnauthorized, orgMsgNoToken)

		// R/teams: T, AR to read; T, RA to change; 405 on a personal repository.
		teams, _, err := aliceC.GetRepoTeams("acme", "r2")
		is.NoErr(err)
		is.Equal(orgTeamNames(teams), []string{"Owners"})
		assertAPIError(t, srv.Do("GET", "/repos/acme/r2/teams", nil), http.StatusUnauthorized, orgMsgNoToken)
		_, err = aliceC.AddRepoTeam("acme", "r2", "docs")
		is.NoErr(err)
		assertInvalid(t, srv.Do("PUT", "/repos/acme/r2/teams/docs", nil, basicAs("alice")...), "team")
		checked, _, err := srv.Client(gitea.SetBasicAuth("carol", userPassword)).CheckRepoTeam("acme", "r2", "docs")
		is.NoErr(err)
		is.Equal(checked.Name, "docs")
		is.Equal(srv.Do("GET", "/repos/acme/r2/teams/developers", nil, basicAs("carol")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/repos/acme/r2/teams/ghosts", nil, basicAs("carol")...).Status, http.StatusNotFound)
		assertAPIError(t, srv.Do("PUT", "/repos/acme/r2/teams/developers", nil, basicAs("carol")...), http.StatusForbidden,
			"user should be an owner or a collaborator with admin write of a repository")
		is.Equal(srv.Do("GET", "/repos/acme/r1/teams", nil, basicAs("carol")...).Status, http.StatusNotFound) // private
		_, err = aliceC.RemoveRepoTeam("acme", "r2", "docs")
		is.NoErr(err)
		assertInvalid(t, srv.Do("DELETE", "/repos/acme/r2/teams/docs", nil, basicAs("alice")...), "team")
		r = srv.Do("GET", "/repos/alice/personal/teams", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusMethodNotAllowed)
		is.Equal(r.Message(), "repo is not owned by an organization")
		is.Equal(srv.Do("PUT", "/repos/alice/personal/teams/docs", nil, basicAs("alice")...).Status, http.StatusMethodNotAllowed)

		// Delete: T, OO, TM; the Owners team stays.
		assertInvalid(t, srv.Do("DELETE", fmt.Sprintf("/teams/%d", owners.ID), nil, basicAs("alice")...), "id")
		is.Equal(srv.Do("DELETE", docsPath, nil, basicAs("bob")...).Status, http.StatusNotFound)
		resp, err = aliceC.DeleteTeam(docs.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(srv.Do("GET", docsPath, nil, basicAs("alice")...).Status, http.StatusNotFound)
		resp, err = aliceC.DeleteTeam(dev.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/orgs/acme/members/bob", nil, basicAs("alice")...).Status, http.StatusNotFound) // his only team went
	})
}
