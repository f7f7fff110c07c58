package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// The refusals of the variable names' rule and of a taken name, as Gitea
// words them.
const (
	msgVariableNameChars  = "name: name must start with a letter or underscore and contain only letters, numbers, and underscores"
	msgVariableNamePrefix = "name: name cannot start with 'GITEA_' or 'GITHUB_'"
	msgVariableNameCI     = "name: 'CI' is a reserved name"
	msgVariableExists     = "variable name already exists"
	msgVariableNotFound   = "variable not found"
)

// TestActionVariables covers the workflow variables of users,
// organisations and repositories: the SDK's calls, the names' rule,
// duplicates, renames, paging and who may reach each scope, on both
// backends.
func TestActionVariables(t *testing.T) {
	t.Parallel()
	backends(t, testActionVariables)
}

func testActionVariables(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "alice", "rita", "wanda", "ada", "sam", "bob")
	repo := createRepoAs(t, srv, "carol", "ci", false)
	createRepoAs(t, srv, "carol", "hidden", true)
	socialCollab(t, srv, "carol", "ci", "rita", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "ci", "wanda", gitea.AccessModeWrite)
	socialCollab(t, srv, "carol", "ci", "ada", gitea.AccessModeAdmin)
	carol, alice := userClient(srv, "carol"), userClient(srv, "alice")
	acme := orgCreate(t, carol, "acme", gitea.VisibleTypePublic)
	orgCreate(t, carol, "secretive", gitea.VisibleTypePrivate)
	orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode}}, "bob")
	aliceUser, _, err := alice.GetMyUserInfo()
	if err != nil {
		t.Fatalf("alice: %v", err)
	}

	t.Run("user variables with the SDK", func(t *testing.T) {
		is := is.New(t)
		resp, err := alice.CreateUserActionVariable("deploy_env", gitea.CreateActionVariableOption{Value: "staging", Description: "where to"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		v, _, err := alice.GetUserActionVariable("DEPLOY_ENV")
		is.NoErr(err)
		is.Equal(*v, gitea.ActionVariable{OwnerID: aliceUser.ID, Name: "DEPLOY_ENV", Data: "staging", Description: "where to"})
		// Names are matched in any case.
		v, _, err = alice.GetUserActionVariable("Deploy_Env")
		is.NoErr(err)
		is.Equal(v.Name, "DEPLOY_ENV")
		resp, err = alice.CreateUserActionVariable("DEPLOY_env", gitea.CreateActionVariableOption{Value: "again"})
		assertSDKStatus(t, resp, err, http.StatusConflict)
		assertAPIError(t, srv.Do("POST", "/user/actions/variables/deploy_env", map[string]any{"value": "x"}, basicAs("alice")...),
			http.StatusConflict, msgVariableExists)

		// A rename with a new value; the description is replaced, so left out it is cleared.
		resp, err = alice.UpdateUserActionVariable("deploy_env", gitea.UpdateActionVariableOption{Name: "target", Value: "prod"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, resp, err = alice.GetUserActionVariable("DEPLOY_ENV")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		v, _, err = alice.GetUserActionVariable("TARGET")
		is.NoErr(err)
		is.Equal(*v, gitea.ActionVariable{OwnerID: aliceUser.ID, Name: "TARGET", Data: "prod"})
		// Without a name it keeps its own.
		resp, err = alice.UpdateUserActionVariable("target", gitea.UpdateActionVariableOption{Value: "prod2", Description: "d"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		list, resp, err := alice.ListUserActionVariable(gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(list), 1)
		is.Equal(*list[0], gitea.ActionVariable{OwnerID: aliceUser.ID, Name: "TARGET", Data: "prod2", Description: "d"})

		// Another user's list is their own.
		list, _, err = carol.ListUserActionVariable(gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		_, resp, err = carol.GetUserActionVariable("TARGET")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// The site admin acting as alice sees hers.
		r := srv.Do("GET", "/user/actions/variables/target", nil, append(socialAdmin(srv), "Sudo", "alice")...)
		is.Equal(r.Status, http.StatusOK)

		resp, err = alice.DeleteUserActionVariable("target")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = alice.DeleteUserActionVariable("target")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", "/user/actions/variables/TARGET", nil, basicAs("alice")...), http.StatusNotFound, msgVariableNotFound)
		assertAPIError(t, srv.Do("GET", "/user/actions/variables/TARGET", nil, basicAs("alice")...), http.StatusNotFound, msgVariableNotFound)
	})

	t.Run("repository variables with the SDK and paging", func(t *testing.T) {
		is := is.New(t)
		for _, n := range []string{"gamma", "alpha", "beta"} {
			resp, err := carol.CreateRepoActionVariable("carol", "ci", n, "value of "+n)
			assertSDKStatus(t, resp, err, http.StatusCreated)
		}
		v, _, err := carol.GetRepoActionVariable("carol", "ci", "alpha")
		is.NoErr(err)
		is.Equal(*v, gitea.RepoActionVariable{RepoID: repo.ID, Name: "ALPHA", Value: "value of alpha"})
		r := srv.Do("GET", "/repos/carol/ci/actions/variables/ALPHA", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(string(r.Body), fmt.Sprintf(`{"owner_id":0,"repo_id":%d,"name":"ALPHA","data":"value of alpha","description":""}`+"\n", repo.ID))

		list, resp, err := carol.ListRepoActionVariable("carol", "ci", gitea.ListRepoActionVariableOption{ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "3")
		is.True(strings.Contains(resp.Header.Get("Link"), `rel="next"`))
		is.Equal(len(list), 2)
		is.Equal([]string{list[0].Name, list[1].Name}, []string{"ALPHA", "BETA"})
		list, _, err = carol.ListRepoActionVariable("carol", "ci", gitea.ListRepoActionVariableOption{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Name, "GAMMA")

		resp, err = carol.UpdateRepoActionVariable("carol", "ci", "gamma", "new")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		v, _, err = carol.GetRepoActionVariable("carol", "ci", "GAMMA")
		is.NoErr(err)
		is.Equal(v.Value, "new")
		resp, err = carol.DeleteRepoActionVariable("carol", "ci", "beta")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, resp, err = carol.GetRepoActionVariable("carol", "ci", "beta")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// The repository's variables are not its owner's.
		list2, _, err := carol.ListUserActionVariable(gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(len(list2), 0)
	})

	t.Run("organisation variables with the SDK", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.CreateOrgActionVariable("acme", "registry", gitea.CreateActionVariableOption{Value: "r.example", Description: "images"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		v, _, err := carol.GetOrgActionVariable("acme", "REGISTRY")
		is.NoErr(err)
		is.Equal(*v, gitea.ActionVariable{OwnerID: acme.ID, Name: "REGISTRY", Data: "r.example", Description: "images"})
		resp, err = carol.CreateOrgActionVariable("acme", "Registry", gitea.CreateActionVariableOption{Value: "again"})
		assertSDKStatus(t, resp, err, http.StatusConflict)
		resp, err = carol.UpdateOrgActionVariable("acme", "registry", gitea.UpdateActionVariableOption{Name: "mirror", Value: "m.example", Description: "images"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		list, resp, err := carol.ListOrgActionVariable("acme", gitea.ListOrgActionVariableOption{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(list), 1)
		is.Equal(*list[0], gitea.ActionVariable{OwnerID: acme.ID, Name: "MIRROR", Data: "m.example", Description: "images"})
		resp, err = carol.DeleteOrgActionVariable("acme", "mirror")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = carol.DeleteOrgActionVariable("acme", "mirror")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/orgs/nobody/actions/variables", nil, basicAs("carol")...), http.StatusNotFound, "")
	})

	t.Run("names, values and renames", func(t *testing.T) {
		is := is.New(t)
		post := func(name string, body any) testserver.Response {
			return srv.Do("POST", "/user/actions/variables/"+name, body, basicAs("alice")...)
		}
		put := func(name string, body any) testserver.Response {
			return srv.Do("PUT", "/user/actions/variables/"+name, body, basicAs("alice")...)
		}
		val := map[string]any{"value": "v"}
		for name, msg := range map[string]string{
			"1ABC": msgVariableNameChars, "A-B": msgVariableNameChars, "A%20B": msgVariableNameChars, "%C3%84": msgVariableNameChars,
			"GITEA_TOKEN": msgVariableNamePrefix, "github_sha": msgVariableNamePrefix, "Ci": msgVariableNameCI,
		} {
			assertAPIError(t, post(name, val), http.StatusUnprocessableEntity, msg)
		}
		assertAPIError(t, post("EMPTY", map[string]any{"value": ""}), http.StatusUnprocessableEntity, "Value: Required")
		assertAPIError(t, post("EMPTY", nil), http.StatusUnprocessableEntity, "Value: Required")
		assertAPIError(t, post("LONG", map[string]any{"value": strings.Repeat("x", 65537)}), http.StatusUnprocessableEntity, "Value: data too long")
		// The name is judged before the value's length, as in Gitea.
		assertAPIError(t, post("9LONG", map[string]any{"value": strings.Repeat("x", 65537)}), http.StatusUnprocessableEntity, msgVariableNameChars)
		assertInvalid(t, post("NUL", map[string]any{"value": "a\x00b"}), "Value")
		assertInvalid(t, post("TYPE", map[string]any{"value": 5}), "Value")
		assertAPIError(t, post("BAD", "{"), http.StatusBadRequest, "")
		assertAPIError(t, post("A%00B", val), http.StatusBadRequest, "")
		list, _, err := alice.ListUserActionVariable(gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0) // nothing was stored
		// 201 without a body, as Gitea.
		r := post("CREATED", val)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(len(r.Body), 0)
		is.Equal(srv.Do("DELETE", "/user/actions/variables/created", nil, basicAs("alice")...).Status, http.StatusNoContent)

		// At the limits: the longest value, line endings made "\n", a long description cut.
		is.Equal(post("_LONG_1", map[string]any{"value": strings.Repeat("é", 65536), "description": strings.Repeat("d", 5000)}).Status, http.StatusCreated)
		v, _, err := alice.GetUserActionVariable("_long_1")
		is.NoErr(err)
		is.Equal(len([]rune(v.Data)), 65536)
		is.Equal(v.Description, strings.Repeat("d", 4096))
		is.Equal(post("LINES", map[string]any{"value": "a\r\nb\rc"}).Status, http.StatusCreated)
		v, _, err = alice.GetUserActionVariable("LINES")
		is.NoErr(err)
		is.Equal(v.Data, "a\nb\nc")

		// Renames: onto another variable's name (any case) is a conflict; a bad new name is refused.
		assertAPIError(t, put("LINES", map[string]any{"name": "_long_1", "value": "v"}), http.StatusConflict, msgVariableExists)
		assertAPIError(t, put("LINES", map[string]any{"name": "github_x", "value": "v"}), http.StatusUnprocessableEntity, msgVariableNamePrefix)
		assertAPIError(t, put("LINES", map[string]any{"name": "LINES"}), http.StatusUnprocessableEntity, "Value: Required")
		assertAPIError(t, put("MISSING", val), http.StatusNotFound, msgVariableNotFound)
		assertAPIError(t, put("MISSING", map[string]any{"name": "1x", "value": "v"}), http.StatusNotFound, msgVariableNotFound)
		v, _, err = alice.GetUserActionVariable("LINES")
		is.NoErr(err)
		is.Equal(v.Data, "a\nb\nc") // the refused updates wrote nothing
		// Renaming to its own name in another case is no conflict.
		is.Equal(put("lines", map[string]any{"name": "Lines", "value": "w"}).Status, http.StatusNoContent)
		for _, n := range []string{"LINES", "_LONG_1"} {
			is.Equal(srv.Do("DELETE", "/user/actions/variables/"+n, nil, basicAs("alice")...).Status, http.StatusNoContent)
		}
		// A path name the rule refuses is simply absent.
		assertAPIError(t, srv.Do("GET", "/user/actions/variables/%C5%BF", nil, basicAs("alice")...), http.StatusNotFound, msgVariableNotFound)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		if r := srv.Do("POST", "/repos/carol/ci/actions/variables/SEEN", map[string]any{"value": "v"}, basicAs("carol")...); r.Status != http.StatusCreated {
			t.Fatalf("seed: %d %s", r.Status, r.Body)
		}
		body := map[string]any{"value": "v"}
		type row struct{ method, path string }
		rows := func(prefix string) []row {
			return []row{{"GET", prefix}, {"GET", prefix + "/SEEN"}, {"POST", prefix + "/NEW_ONE"}, {"PUT", prefix + "/SEEN"}, {"DELETE", prefix + "/SEEN"}}
		}
		for _, rt := range rows("/repos/carol/ci/actions/variables") {
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
			// Only the owner (and the site admin): readers, writers and
			// repository admins are refused, as is everyone else.
			for _, who := range []string{"sam", "rita", "wanda", "ada"} {
				assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs(who)...), http.StatusForbidden, msgRepoOwner)
			}
		}
		for _, rt := range rows("/repos/carol/hidden/actions/variables") {
			// A private repository is resolved first: 404 even to anonymous callers.
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusNotFound, "")
		}
		for _, rt := range rows("/orgs/acme/actions/variables") {
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
			// Members who own nothing are refused.
			for _, who := range []string{"sam", "bob"} {
				assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs(who)...), http.StatusForbidden, "Must be an organization owner")
			}
		}
		for _, rt := range rows("/orgs/secretive/actions/variables") {
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("sam")...), http.StatusNotFound, "")
		}
		for _, rt := range rows("/user/actions/variables") {
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
		}

		// On an organisation's repository the organisation's owners are its owners; its team's writers are not.
		_, _, err := carol.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "tools"})
		is.NoErr(err)
		is.Equal(srv.Do("POST", "/repos/acme/tools/actions/variables/ORG_REPO", body, basicAs("carol")...).Status, http.StatusCreated)
		assertAPIError(t, srv.Do("GET", "/repos/acme/tools/actions/variables", nil, basicAs("bob")...), http.StatusForbidden, msgRepoOwner)

		// The owner and the site admin manage the repository's and the organisation's.
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/variables/SEEN", nil, basicAs("carol")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/variables/SEEN", nil, socialAdmin(srv)...).Status, http.StatusOK)
		is.Equal(srv.Do("POST", "/repos/carol/hidden/actions/variables/BY_ADMIN", body, socialAdmin(srv)...).Status, http.StatusCreated)
		is.Equal(srv.Do("POST", "/orgs/acme/actions/variables/BY_ADMIN", body, socialAdmin(srv)...).Status, http.StatusCreated)
		is.Equal(srv.Do("GET", "/orgs/secretive/actions/variables", nil, basicAs("carol")...).Status, http.StatusOK)
		is.Equal(srv.Do("DELETE", "/orgs/acme/actions/variables/by_admin", nil, basicAs("carol")...).Status, http.StatusNoContent)

		// Tokens: each scope's category, read for GET and write otherwise.
		scopeWantDenied(is, srv.Do("GET", "/repos/carol/ci/actions/variables", nil, tokenHeader(srv, "carol", "read:user")...), "read:repository", "read:user")
		scopeWantDenied(is, srv.Do("POST", "/repos/carol/ci/actions/variables/T1", body, tokenHeader(srv, "carol", "read:repository")...),
			"write:repository", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/variables", nil, tokenHeader(srv, "carol", "read:repository")...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/repos/carol/ci/actions/variables/SEEN", body, tokenHeader(srv, "carol", "write:repository")...).Status, http.StatusNoContent)
		scopeWantDenied(is, srv.Do("GET", "/orgs/acme/actions/variables", nil, tokenHeader(srv, "carol", "read:repository")...),
			"read:organization", "read:repository")
		scopeWantDenied(is, srv.Do("DELETE", "/orgs/acme/actions/variables/X", nil, tokenHeader(srv, "carol", "read:organization")...),
			"write:organization", "read:organization")
		is.Equal(srv.Do("POST", "/orgs/acme/actions/variables/T2", body, tokenHeader(srv, "carol", "write:organization")...).Status, http.StatusCreated)
		scopeWantDenied(is, srv.Do("GET", "/user/actions/variables", nil, tokenHeader(srv, "alice", "read:repository")...),
			"read:user", "read:repository")
		scopeWantDenied(is, srv.Do("POST", "/user/actions/variables/T3", body, tokenHeader(srv, "alice", "read:user")...), "write:user", "read:user")
		is.Equal(srv.Do("POST", "/user/actions/variables/T3", body, tokenHeader(srv, "alice", "write:user")...).Status, http.StatusCreated)
		// A public-only token reaches public repositories and organisations only.
		publicRepo := tokenHeader(srv, "carol", "public-only", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/variables", nil, publicRepo...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/actions/variables", nil, publicRepo...), http.StatusForbidden, msgPublicOnly)
		publicOrg := tokenHeader(srv, "carol", "public-only", "read:organization")
		is.Equal(srv.Do("GET", "/orgs/acme/actions/variables", nil, publicOrg...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/orgs/secretive/actions/variables", nil, publicOrg...), http.StatusForbidden, "token scope is limited to public orgs")
	})

	t.Run("variables go with their repository", func(t *testing.T) {
		is := is.New(t)
		createRepoAs(t, srv, "carol", "shortlived", false)
		is.Equal(srv.Do("POST", "/repos/carol/shortlived/actions/variables/GONE", map[string]any{"value": "v"}, basicAs("carol")...).Status, http.StatusCreated)
		_, err := carol.DeleteRepo("carol", "shortlived")
		is.NoErr(err)
		createRepoAs(t, srv, "carol", "shortlived", false)
		list, _, err := carol.ListRepoActionVariable("carol", "shortlived", gitea.ListRepoActionVariableOption{})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})
}
