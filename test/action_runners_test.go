package test

import (
	"net/http"
	"testing"

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
