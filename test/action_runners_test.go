package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"connectrpc.com/connect"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestActionRunnerRegistrationTokens covers the runners' registration
// tokens of a user, a repository, an organisation and the site: GET and
// POST answer the scope's one token, each scope has its own, and who may
// reach each scope, on both backends.
func TestActionRunnerRegistrationTokens(t *testing.T) {
	t.Parallel()
	backends(t, testActionRunnerRegistrationTokens)
}

func testActionRunnerRegistrationTokens(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "alice", "ada", "sam", "bob")
	createRepoAs(t, srv, "carol", "ci", false)
	createRepoAs(t, srv, "carol", "hidden", true)
	socialCollab(t, srv, "carol", "ci", "ada", gitea.AccessModeAdmin)
	carol := userClient(srv, "carol")
	orgCreate(t, carol, "acme", gitea.VisibleTypePublic)
	orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode}}, "bob")

	token := func(t *testing.T, method, path string, header ...string) string {
		t.Helper()
		r := srv.Do(method, path, nil, header...)
		if r.Status != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		var out struct {
			Token string `json:"token"`
		}
		r.Decode(t, &out)
		if len(out.Token) != 40 {
			t.Fatalf("%s %s: token %q", method, path, out.Token)
		}
		return out.Token
	}

	t.Run("one token per scope, the same until reset", func(t *testing.T) {
		is := is.New(t)
		seen := map[string]bool{}
		for _, sc := range []struct {
			get, post string
			who       []string
		}{
			{"/user/actions/runners/registration-token", "/user/actions/runners/registration-token", basicAs("alice")},
			{"/repos/carol/ci/actions/runners/registration-token", "/repos/carol/ci/actions/runners/registration-token", basicAs("carol")},
			{"/orgs/acme/actions/runners/registration-token", "/orgs/acme/actions/runners/registration-token", basicAs("carol")},
			{"/admin/runners/registration-token", "/admin/actions/runners/registration-token", socialAdmin(srv)},
		} {
			first := token(t, "GET", sc.get, sc.who...)
			is.Equal(token(t, "GET", sc.get, sc.who...), first)
			is.Equal(token(t, "POST", sc.post, sc.who...), first)
			is.True(!seen[first])
			seen[first] = true
		}
		// Another user's own scope has another token.
		is.True(!seen[token(t, "GET", "/user/actions/runners/registration-token", basicAs("sam")...)])
	})

	t.Run("access", func(t *testing.T) {
		for _, m := range []string{"GET", "POST"} {
			assertAPIError(t, srv.Do(m, "/user/actions/runners/registration-token", nil), http.StatusUnauthorized, msgTokenRequired)
			assertAPIError(t, srv.Do(m, "/repos/carol/ci/actions/runners/registration-token", nil), http.StatusUnauthorized, msgTokenRequired)
			for _, who := range []string{"sam", "ada"} {
				assertAPIError(t, srv.Do(m, "/repos/carol/ci/actions/runners/registration-token", nil, basicAs(who)...), http.StatusForbidden, msgRepoOwner)
			}
			assertAPIError(t, srv.Do(m, "/repos/carol/hidden/actions/runners/registration-token", nil, basicAs("sam")...), http.StatusNotFound, "")
			for _, who := range []string{"sam", "bob"} {
				assertAPIError(t, srv.Do(m, "/orgs/acme/actions/runners/registration-token", nil, basicAs(who)...), http.StatusForbidden, "Must be an organization owner")
			}
		}
		for _, rt := range [][2]string{{"GET", "/admin/runners/registration-token"}, {"POST", "/admin/actions/runners/registration-token"}} {
			r := srv.Do(rt[0], rt[1], nil, basicAs("carol")...)
			if r.Status != http.StatusForbidden {
				t.Fatalf("%s %s as carol: %d", rt[0], rt[1], r.Status)
			}
		}
	})
}

// TestActionRunners covers the runners of a user, a repository, an
// organisation and the site, registered through the runner protocol:
// listing, reading and deleting each through its own scope's paths with
// the SDK, another scope's runner being a 404, a deleted runner no longer
// authenticating, and who may reach each scope, on both backends.
func TestActionRunners(t *testing.T) {
	t.Parallel()
	backends(t, testActionRunners)
}

func testActionRunners(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "alice", "ada", "sam", "bob")
	createRepoAs(t, srv, "carol", "ci", false)
	createRepoAs(t, srv, "carol", "hidden", true)
	socialCollab(t, srv, "carol", "ci", "ada", gitea.AccessModeAdmin)
	carol, alice, admin := userClient(srv, "carol"), userClient(srv, "alice"), srv.Client(gitea.SetBasicAuth("admin", srv.AdminPassword))
	orgCreate(t, carol, "acme", gitea.VisibleTypePublic)
	orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode}}, "bob")

	mine := registerRunner(t, srv, registrationToken(t, srv, "/user/actions/runners/registration-token", basicAs("alice")...), "alices", "linux", "arm64")
	repoR := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", basicAs("carol")...), "repo-box", "ubuntu-latest")
	orgR := registerRunner(t, srv, registrationToken(t, srv, "/orgs/acme/actions/runners/registration-token", basicAs("carol")...), "org-box")
	siteR := registerRunner(t, srv, registrationToken(t, srv, "/admin/runners/registration-token", socialAdmin(srv)...), "site-box")
	// One more of the repository, which has asked for work: online.
	repoR2 := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", basicAs("carol")...), "repo-box-2")
	repoR2.fetch(t, 0)

	t.Run("list and get at each scope with the SDK", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := alice.ListUserActionRunners(gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(list.TotalCount, int64(1))
		got := list.Runners[0]
		is.Equal(got.ID, mine.id)
		is.Equal(got.Name, "alices")
		is.Equal(got.Status, "offline") // registered, never asked for work
		is.True(!got.Busy)
		is.True(!got.Ephemeral)
		is.Equal(len(got.Labels), 2)
		is.Equal(*got.Labels[1], gitea.ActionRunnerLabel{ID: 1, Name: "arm64", Type: "custom"})
		one, _, err := alice.GetUserActionRunner(mine.id)
		is.NoErr(err)
		is.Equal(*one, *got)

		list, resp, err = carol.ListRepoActionRunners("carol", "ci", gitea.ListActionRunnersOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(2))
		is.Equal(resp.Header.Get("X-Total-Count"), "2")
		is.Equal(len(list.Runners), 1)
		is.Equal(list.Runners[0].ID, repoR.id)
		two, _, err := carol.GetRepoActionRunner("carol", "ci", repoR2.id)
		is.NoErr(err)
		is.Equal(two.Status, "online")
		is.Equal(two.Name, "repo-box-2")

		list, _, err = carol.ListOrgActionRunners("acme", gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(1))
		is.Equal(list.Runners[0].ID, orgR.id)
		list, _, err = admin.ListAdminActionRunners(gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(1))
		is.Equal(list.Runners[0].ID, siteR.id)
		site, _, err := admin.GetAdminActionRunner(siteR.id)
		is.NoErr(err)
		is.Equal(site.Name, "site-box")

		// Raw shape: an empty list is an empty array.
		r := srv.Do("GET", "/user/actions/runners", nil, basicAs("sam")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(strings.TrimSpace(string(r.Body)), `{"runners":[],"total_count":0}`)
	})

	t.Run("another scope's runner is not found", func(t *testing.T) {
		is := is.New(t)
		for _, c := range []struct {
			path string
			who  []string
		}{
			{"/user/actions/runners/" + strconv.FormatInt(repoR.id, 10), basicAs("carol")},
			{"/user/actions/runners/" + strconv.FormatInt(mine.id, 10), basicAs("sam")},
			{"/repos/carol/ci/actions/runners/" + strconv.FormatInt(orgR.id, 10), basicAs("carol")},
			{"/orgs/acme/actions/runners/" + strconv.FormatInt(siteR.id, 10), basicAs("carol")},
			{"/admin/actions/runners/" + strconv.FormatInt(mine.id, 10), socialAdmin(srv)},
			{"/admin/actions/runners/abc", socialAdmin(srv)},
		} {
			assertAPIError(t, srv.Do("GET", c.path, nil, c.who...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("DELETE", c.path, nil, c.who...), http.StatusNotFound, "")
		}
		_, resp, err := carol.GetRepoActionRunner("carol", "ci", 999999)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// Nothing was deleted.
		list, _, err := admin.ListAdminActionRunners(gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(1))
	})

	t.Run("access", func(t *testing.T) {
		for _, m := range []string{"GET", "DELETE"} {
			one := "/" + strconv.FormatInt(repoR.id, 10)
			if m == "GET" {
				assertAPIError(t, srv.Do(m, "/user/actions/runners", nil), http.StatusUnauthorized, msgTokenRequired)
				assertAPIError(t, srv.Do(m, "/repos/carol/ci/actions/runners", nil), http.StatusUnauthorized, msgTokenRequired)
			}
			assertAPIError(t, srv.Do(m, "/user/actions/runners"+one, nil), http.StatusUnauthorized, msgTokenRequired)
			for _, who := range []string{"sam", "ada"} {
				assertAPIError(t, srv.Do(m, "/repos/carol/ci/actions/runners"+one, nil, basicAs(who)...), http.StatusForbidden, msgRepoOwner)
			}
			assertAPIError(t, srv.Do(m, "/repos/carol/hidden/actions/runners"+one, nil, basicAs("sam")...), http.StatusNotFound, "")
			for _, who := range []string{"sam", "bob"} {
				assertAPIError(t, srv.Do(m, "/orgs/acme/actions/runners/"+strconv.FormatInt(orgR.id, 10), nil, basicAs(who)...), http.StatusForbidden, "Must be an organization owner")
			}
			r := srv.Do(m, "/admin/actions/runners/"+strconv.FormatInt(siteR.id, 10), nil, basicAs("carol")...)
			if r.Status != http.StatusForbidden {
				t.Fatalf("%s admin runner as carol: %d", m, r.Status)
			}
		}
		for _, p := range []string{"/repos/carol/ci/actions/runners", "/orgs/acme/actions/runners", "/admin/actions/runners"} {
			r := srv.Do("GET", p, nil, basicAs("sam")...)
			if r.Status != http.StatusForbidden {
				t.Fatalf("GET %s as sam: %d", p, r.Status)
			}
		}
		// A token without the scope's category is refused.
		readRepo := tokenHeader(srv, "carol", "read:repository")
		if r := srv.Do("GET", "/orgs/acme/actions/runners", nil, readRepo...); r.Status != http.StatusForbidden {
			t.Fatalf("org runners with a repository token: %d", r.Status)
		}
	})

	t.Run("delete at each scope", func(t *testing.T) {
		is := is.New(t)
		resp, err := alice.DeleteUserActionRunner(mine.id)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, resp, err = alice.GetUserActionRunner(mine.id)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = alice.DeleteUserActionRunner(mine.id)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// The deleted runner no longer authenticates.
		_, err = mine.client.FetchTask(t.Context(), runnerRequest(mine, &runnerv1.FetchTaskRequest{}))
		assertCode(t, err, connect.CodeUnauthenticated)

		resp, err = carol.DeleteRepoActionRunner("carol", "ci", repoR.id)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		list, _, err := carol.ListRepoActionRunners("carol", "ci", gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(1))
		resp, err = carol.DeleteOrgActionRunner("acme", orgR.id)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		resp, err = admin.DeleteAdminActionRunner(siteR.id)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		list, _, err = admin.ListAdminActionRunners(gitea.ListActionRunnersOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(0))
		// The other runner of the repository still works.
		repoR2.fetch(t, 0)
	})
}
