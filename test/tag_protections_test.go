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

// tagProtOrgRepo makes alice's organisation acme with the repository code
// (one commit on main), a team devs that writes every repository with dev
// as member, an empty team idle that reaches no repository, and writer as
// a write collaborator. It returns alice's client.
func tagProtOrgRepo(t *testing.T, srv *testserver.Server) *gitea.Client {
	t.Helper()
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"dev", "writer", "trusted"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
	if _, _, err := alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "code", AutoInit: true, Readme: "Default"}); err != nil {
		t.Fatalf("create acme/code: %v", err)
	}
	orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
		IncludesAllRepositories: true, Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitPulls}}, "dev")
	orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "idle", Permission: gitea.AccessModeRead,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode}})
	write := gitea.AccessModeWrite
	for _, who := range []string{"writer", "trusted"} {
		if _, err := alice.AddCollaborator("acme", "code", who, gitea.AddCollaboratorOption{Permission: &write}); err != nil {
			t.Fatalf("add collaborator %s: %v", who, err)
		}
	}
	return alice
}

func TestTagProtectionCRUD(t *testing.T) {
	t.Parallel()
	backends(t, tagProtectionCRUD)
}

// tagProtectionCRUD runs TestTagProtectionCRUD's scenario on one backend.
func tagProtectionCRUD(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := tagProtOrgRepo(t, srv)
	is := is.New(t)

	created, resp, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "  v*  ", WhitelistUsernames: []string{"Trusted", "writer", "trusted"}, WhitelistTeams: []string{"DEVS"}})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.True(created.ID > 0)
	is.Equal(created.NamePattern, "v*") // trimmed, as Gitea does
	is.Equal(created.WhitelistUsernames, []string{"trusted", "writer"})
	is.Equal(created.WhitelistTeams, []string{"devs"})
	is.True(!created.Created.IsZero())
	is.True(!created.Updated.IsZero())

	regex, _, err := alice.CreateTagProtection("acme", "code", gitea.CreateTagProtectionOption{
		NamePattern: "/^rc-[0-9]+$/", WhitelistTeams: []string{"devs"}})
	is.NoErr(err)
	is.Equal(regex.WhitelistUsernames, []string{})

	got, _, err := alice.GetTagProtection("acme", "code", created.ID)
	is.NoErr(err)
	is.Equal(got.NamePattern, "v*")
	is.Equal(got.WhitelistUsernames, []string{"trusted", "writer"})
	is.Equal(got.WhitelistTeams, []string{"devs"})
	is.True(got.Created.Equal(created.Created))

	list, resp, err := alice.ListTagProtection("acme", "code", gitea.ListRepoTagProtectionsOptions{})
	is.NoErr(err)
	is.Equal(len(list), 2)
	is.Equal(list[0].ID, created.ID)
	is.Equal(list[1].ID, regex.ID)
	is.Equal(resp.Header.Get("X-Total-Count"), "2")
	list, _, err = alice.ListTagProtection("acme", "code", gitea.ListRepoTagProtectionsOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
	is.NoErr(err)
	is.Equal(len(list), 1)
	is.Equal(list[0].ID, regex.ID)

	t.Run("EditChangesOnlyWhatIsGiven", func(t *testing.T) {
		is := is.New(t)
		pattern := "release-*"
		e, _, err := alice.EditTagProtection("acme", "code", created.ID, gitea.EditTagProtectionOption{NamePattern: &pattern})
		is.NoErr(err)
		is.Equal(e.NamePattern, "release-*")
		is.Equal(e.WhitelistUsernames, []string{"trusted", "writer"}) // kept
		is.Equal(e.WhitelistTeams, []string{"devs"})
		is.True(!e.Updated.Before(created.Updated))

		e, _, err = alice.EditTagProtection("acme", "code", created.ID, gitea.EditTagProtectionOption{
			WhitelistUsernames: []string{"writer"}, WhitelistTeams: []string{}})
		is.NoErr(err)
		is.Equal(e.NamePattern, "release-*")
		is.Equal(e.WhitelistUsernames, []string{"writer"})
		is.Equal(e.WhitelistTeams, []string{}) // an empty list empties it

		// A team that does not reach the repository is kept but not shown,
		// as Gitea shows only the teams that may read the code.
		r := srv.Do("PATCH", "/repos/acme/code/tag_protections/"+fmt.Sprint(created.ID),
			map[string]any{"whitelist_teams": []string{"idle", "devs"}}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var shown gitea.TagProtection
		r.Decode(t, &shown)
		is.Equal(shown.WhitelistTeams, []string{"devs"})
	})

	t.Run("BadInput", func(t *testing.T) {
		is := is.New(t)
		path := "/repos/acme/code/tag_protections"
		one := path + "/" + fmt.Sprint(created.ID)
		as := basicAs("alice")
		assertAPIError(t, srv.Do("POST", path, map[string]any{"name_pattern": "  ", "whitelist_usernames": []string{"writer"}}, as...),
			http.StatusBadRequest, "name_pattern are empty")
		assertAPIError(t, srv.Do("POST", path, map[string]any{"name_pattern": "x*"}, as...),
			http.StatusBadRequest, "both whitelist_usernames and whitelist_teams are empty")
		assertAPIError(t, srv.Do("POST", path, "{", as...), http.StatusBadRequest, "")
		for body, field := range map[string]string{
			`{"name_pattern":"x*","whitelist_usernames":["writer","nobody"]}`: "whitelist_usernames",
			`{"name_pattern":"x*","whitelist_usernames":["acme"]}`:            "whitelist_usernames", // an organisation
			`{"name_pattern":"x*","whitelist_teams":["devs","ghosts"]}`:       "whitelist_teams",
			`{"name_pattern":"/[0-9/","whitelist_usernames":["writer"]}`:      "name_pattern",
			`{"name_pattern":"x[0-9","whitelist_usernames":["writer"]}`:       "name_pattern",
			`{"name_pattern":"{a,b","whitelist_usernames":["writer"]}`:        "name_pattern",
			`{"name_pattern":"release-*","whitelist_usernames":["writer"]}`:   "name_pattern", // taken
		} {
			assertInvalid(t, srv.Do("POST", path, body, as...), field)
		}
		long := strings.Repeat("v", 256)
		assertInvalid(t, srv.Do("POST", path, map[string]any{"name_pattern": long, "whitelist_usernames": []string{"writer"}}, as...), "name_pattern")
		for body, field := range map[string]string{
			`{"name_pattern":"/(/"}`:             "name_pattern",
			`{"name_pattern":"/^rc-[0-9]+$/"}`:   "name_pattern", // taken by the other rule
			`{"whitelist_usernames":["nobody"]}`: "whitelist_usernames",
			`{"whitelist_teams":["ghosts"]}`:     "whitelist_teams",
		} {
			assertInvalid(t, srv.Do("PATCH", one, body, as...), field)
		}
		assertAPIError(t, srv.Do("PATCH", one, `{"name_pattern":""}`, as...), http.StatusBadRequest, "name_pattern are empty")
		g, _, err := alice.GetTagProtection("acme", "code", created.ID)
		is.NoErr(err)
		is.Equal(g.NamePattern, "release-*") // nothing refused was written

		list, _, err := alice.ListTagProtection("acme", "code", gitea.ListRepoTagProtectionsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
	})

	t.Run("TeamsOnAPersonalRepository", func(t *testing.T) {
		createRepo(t, alice, gitea.CreateRepoOption{Name: "mine", AutoInit: true})
		path := "/repos/alice/mine/tag_protections"
		assertInvalid(t, srv.Do("POST", path, map[string]any{"name_pattern": "v*", "whitelist_teams": []string{"devs"}}, basicAs("alice")...),
			"whitelist_teams")
		r := srv.Do("POST", path, map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}, basicAs("alice")...)
		is.New(t).Equal(r.Status, http.StatusCreated)
	})

	t.Run("NotFound", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
		// Another repository's rule is not found through this one.
		_, resp, err := alice.GetTagProtection("alice", "other", created.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		for _, m := range []string{"GET", "PATCH", "DELETE"} {
			r := srv.Do(m, "/repos/alice/other/tag_protections/"+fmt.Sprint(created.ID), map[string]any{}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusNotFound)
			r = srv.Do(m, "/repos/acme/code/tag_protections/x", map[string]any{}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusNotFound)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := alice.DeleteTagProtection("acme", "code", regex.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, resp, err = alice.GetTagProtection("acme", "code", regex.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = alice.DeleteTagProtection("acme", "code", regex.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("DeletedAccountsLeaveTheAllowlist", func(t *testing.T) {
		is := is.New(t)
		_, err := srv.AdminClient().AdminDeleteUser("writer")
		is.NoErr(err)
		g, _, err := alice.GetTagProtection("acme", "code", created.ID)
		is.NoErr(err)
		is.Equal(g.WhitelistUsernames, []string{})
	})

	t.Run("ArchivedRepository", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "old"})
		r := srv.Do("POST", "/repos/alice/old/tag_protections", map[string]any{"name_pattern": "v*", "whitelist_usernames": []string{"alice"}}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		var rule gitea.TagProtection
		r.Decode(t, &rule)
		yes := true
		_, _, err := alice.EditRepo("alice", "old", gitea.EditRepoOption{Archived: &yes})
		is.NoErr(err)
		one := "/repos/alice/old/tag_protections/" + fmt.Sprint(rule.ID)
		is.Equal(srv.Do("POST", "/repos/alice/old/tag_protections", map[string]any{"name_pattern": "x*", "whitelist_usernames": []string{"alice"}}, basicAs("alice")...).Status, http.StatusLocked)
		is.Equal(srv.Do("PATCH", one, map[string]any{"name_pattern": "x*"}, basicAs("alice")...).Status, http.StatusLocked)
		is.Equal(srv.Do("GET", one, nil, basicAs("alice")...).Status, http.StatusOK)
		is.Equal(srv.Do("DELETE", one, nil, basicAs("alice")...).Status, http.StatusNoContent) // the spec gives DELETE no NA
	})
}

// TestTagProtectionAccessMatrix runs every tag protection route against
// every kind of caller on a public and a private repository: only the
// repository's administrators pass.
func TestTagProtectionAccessMatrix(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"carol", "reader", "writer", "boss"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	rules := map[string]int64{}
	for _, repo := range []string{"pub", "priv"} {
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: repo, Private: repo == "priv", AutoInit: true})
		for who, mode := range map[string]gitea.AccessMode{
			"reader": gitea.AccessModeRead, "writer": gitea.AccessModeWrite, "boss": gitea.AccessModeAdmin,
		} {
			if _, err := aliceC.AddCollaborator("alice", repo, who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
				t.Fatalf("add collaborator %s: %v", who, err)
			}
		}
		rule, _, err := aliceC.CreateTagProtection("alice", repo, gitea.CreateTagProtectionOption{
			NamePattern: "v*", WhitelistUsernames: []string{"alice"}})
		if err != nil {
			t.Fatalf("create rule on %s: %v", repo, err)
		}
		rules[repo] = rule.ID
	}
	headers := map[string]string{
		"outsider":      testserver.Basic("carol", userPassword),
		"reader":        testserver.Basic("reader", userPassword),
		"writer":        testserver.Basic("writer", userPassword),
		"admin":         testserver.Basic("boss", userPassword),
		"no-repo-scope": "token " + srv.CreateToken("alice", userPassword, "write:user", "write:issue"),
	}
	actors := []string{"anonymous", "outsider", "reader", "writer", "admin", "no-repo-scope"}
	// want is the outcome on the public and on the private repository.
	want := map[string][2]string{
		"anonymous": {"401", "404"}, "outsider": {"403", "404"}, "reader": {"403", "403"},
		"writer": {"403", "403"}, "no-repo-scope": {"scope", "scope"},
	}
	routes := []struct {
		method, path string
		body         any
		ok           int
	}{
		{"GET", "", nil, http.StatusOK},
		{"POST", "", map[string]any{"name_pattern": "{who}-*", "whitelist_usernames": []string{"alice"}}, http.StatusCreated},
		{"GET", "/{id}", nil, http.StatusOK},
		{"PATCH", "/{id}", map[string]any{"whitelist_usernames": []string{"alice", "boss"}}, http.StatusOK},
		{"DELETE", "/{other}", nil, http.StatusNoContent},
	}
	for _, rt := range routes {
		t.Run(rt.method+" R/tag_protections"+rt.path, func(t *testing.T) {
			for _, actor := range actors {
				for vis, repo := range []string{"pub", "priv"} {
					t.Run(actor+" on "+repo, func(t *testing.T) {
						path := "/repos/alice/" + repo + "/tag_protections" + strings.ReplaceAll(rt.path, "{id}", fmt.Sprint(rules[repo]))
						if strings.Contains(path, "{other}") {
							// Each deletion that may pass gets a rule of its own.
							other, _, err := aliceC.CreateTagProtection("alice", repo, gitea.CreateTagProtectionOption{
								NamePattern: "del-" + actor + "-*", WhitelistUsernames: []string{"alice"}})
							if err != nil {
								t.Fatalf("create rule to delete: %v", err)
							}
							path = strings.ReplaceAll(path, "{other}", fmt.Sprint(other.ID))
						}
						body := rt.body
						if m, ok := body.(map[string]any); ok && m["name_pattern"] != nil {
							body = map[string]any{"name_pattern": actor + "-*", "whitelist_usernames": m["whitelist_usernames"]}
						}
						var header []string
						if h := headers[actor]; h != "" {
							header = []string{"Authorization", h}
						}
						r := srv.Do(rt.method, path, body, header...)
						outcome := "ok"
						if w, ok := want[actor]; ok {
							outcome = w[vis]
						}
						switch outcome {
						case "401":
							assertAPIError(t, r, http.StatusUnauthorized, msgTokenRequired)
						case "404":
							assertAPIError(t, r, http.StatusNotFound, msgNoRepo)
						case "403":
							assertAPIError(t, r, http.StatusForbidden, msgRepoAdmin)
						case "scope":
							level := "read"
							if rt.method != http.MethodGet {
								level = "write"
							}
							assertAPIError(t, r, http.StatusForbidden, scopeDenied+level+":repository], token scope=write:issue,write:user")
						default:
							if r.Status != rt.ok {
								t.Fatalf("%s %s as %s: %d, want %d (%s)", rt.method, path, actor, r.Status, rt.ok, r.Body)
							}
						}
					})
				}
			}
		})
	}
	// The site administrator passes RA everywhere.
	r := srv.Do("GET", "/repos/alice/priv/tag_protections", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword))
	is.New(t).Equal(r.Status, http.StatusOK)
}
