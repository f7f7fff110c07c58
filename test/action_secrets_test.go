package test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// msgOrgOwnerOnly is OO's refusal.
const msgOrgOwnerOnly = "Must be an organization owner"

// TestActionSecrets covers the workflow secrets of repositories,
// organisations and users: create and update, names-only lists with paging,
// deletion, the name and value rules, sealing at rest, and who may manage
// them, on both backends.
func TestActionSecrets(t *testing.T) {
	t.Parallel()
	backends(t, testActionSecrets)
}

func testActionSecrets(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "rita", "wendy", "ada", "sam", "mona")
	carolUser, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	repo := createRepoAs(t, srv, "carol", "app", false)
	createRepoAs(t, srv, "carol", "hidden", true)
	socialCollab(t, srv, "carol", "app", "rita", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "app", "wendy", gitea.AccessModeWrite)
	socialCollab(t, srv, "carol", "app", "ada", gitea.AccessModeAdmin)
	stores := srv.App.DB.Stores()

	t.Run("repository", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.CreateRepoActionSecret("carol", "app", "deploy_key", gitea.CreateOrUpdateSecretOption{
			Data: "s3cr3t-value-one", Description: "the deploy key"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		for _, name := range []string{"B_TOKEN", "a_token"} {
			resp, err = carol.CreateRepoActionSecret("carol", "app", name, gitea.CreateOrUpdateSecretOption{Data: "v-" + name})
			assertSDKStatus(t, resp, err, http.StatusCreated)
		}

		list, resp, err := carol.ListRepoActionSecret("carol", "app", gitea.ListRepoActionSecretOption{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "3")
		is.Equal(len(list), 3)
		is.Equal([]string{list[0].Name, list[1].Name, list[2].Name}, []string{"A_TOKEN", "B_TOKEN", "DEPLOY_KEY"})
		is.Equal(list[2].Description, "the deploy key")
		is.True(time.Since(list[2].Created) < time.Hour)
		for _, s := range list {
			is.Equal(s.Data, "") // values never come back
		}
		r := srv.Do("GET", "/repos/carol/app/actions/secrets", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusOK)
		is.True(!bytes.Contains(r.Body, []byte("s3cr3t")))
		is.True(!bytes.Contains(r.Body, []byte(`"data"`)))

		// Paging.
		list, resp, err = carol.ListRepoActionSecret("carol", "app", gitea.ListRepoActionSecretOption{
			ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Name, "DEPLOY_KEY")
		is.Equal(resp.Header.Get("X-Total-Count"), "3")
		is.True(strings.Contains(resp.Header.Get("Link"), `rel="first"`))

		// An update in any case of the name: 204, new value, the description
		// replaced (absent is empty, as Gitea), the creation time kept.
		before := storedSecret(t, srv, actions.RepoSecrets(repo.ID), "DEPLOY_KEY")
		r = srv.Do("PUT", "/repos/carol/app/actions/secrets/Deploy_Key", map[string]string{"data": "s3cr3t-value-two"}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusNoContent)
		after := storedSecret(t, srv, actions.RepoSecrets(repo.ID), "DEPLOY_KEY")
		is.Equal(after.ID, before.ID)
		is.Equal(after.Created, before.Created)
		is.Equal(after.Description, "")
		is.True(after.Data != before.Data)

		// Sealed at rest: neither the store's column nor the database's files
		// hold a value in clear.
		is.True(strings.HasPrefix(after.Data, "v1:"))
		is.True(!strings.Contains(after.Data, "s3cr3t"))
		assertNotOnDisk(t, srv, "s3cr3t-value")
		if srv.App.DB.Dialect() == "sqlite" {
			is.True(onDisk(t, srv, "DEPLOY_KEY")) // the scan does see the rows: names are kept in clear
		}

		// A secret belongs to its repository.
		createRepoAs(t, srv, "carol", "other", false)
		list, _, err = carol.ListRepoActionSecret("carol", "other", gitea.ListRepoActionSecretOption{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/other/actions/secrets/DEPLOY_KEY", nil, basicAs("carol")...), http.StatusNotFound, "secret not found")

		resp, err = carol.DeleteRepoActionSecret("carol", "app", "b_token")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = carol.DeleteRepoActionSecret("carol", "app", "B_TOKEN")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/app/actions/secrets/not-a-name", nil, basicAs("carol")...), http.StatusNotFound, "secret not found")
		list, _, err = carol.ListRepoActionSecret("carol", "app", gitea.ListRepoActionSecretOption{})
		is.NoErr(err)
		is.Equal(len(list), 2)
	})

	t.Run("invalid", func(t *testing.T) {
		put := func(name string, body any) testserver.Response {
			return srv.Do("PUT", "/repos/carol/app/actions/secrets/"+name, body, basicAs("carol")...)
		}
		ok := map[string]string{"data": "x"}
		for _, name := range []string{"1ABC", "MY-SECRET", "my.secret", "GITHUB_TOKEN", "gitea_token", "with%20space", "%C3%89T%C3%89",
			strings.Repeat("A", actions.SecretNameMaxLength+1)} {
			assertAPIError(t, put(name, ok), http.StatusUnprocessableEntity, "secretname: invalid secret name")
		}
		assertAPIError(t, put("EMPTY", map[string]string{"data": ""}), http.StatusUnprocessableEntity, "Data: Required")
		assertAPIError(t, put("EMPTY", map[string]string{}), http.StatusUnprocessableEntity, "Data: Required")
		assertAPIError(t, put("BIG", map[string]string{"data": strings.Repeat("x", actions.SecretDataMaxLength+1)}),
			http.StatusUnprocessableEntity, "Data: data too long")
		assertAPIError(t, put("TYPED", map[string]any{"data": 5}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, put("BROKEN", "{"), http.StatusBadRequest, "")
		assertAPIError(t, srv.Do("GET", "/repos/carol/app/actions/secrets?page=x", nil, basicAs("carol")...), http.StatusBadRequest, "")

		// The longest value and description are kept; a longer description is cut.
		is := is.New(t)
		r := put("LONG", map[string]string{"data": strings.Repeat("x", actions.SecretDataMaxLength),
			"description": strings.Repeat("d", actions.SecretDescriptionMaxLength+10)})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(len(storedSecret(t, srv, actions.RepoSecrets(repo.ID), "LONG").Description), actions.SecretDescriptionMaxLength)
	})

	t.Run("organisation", func(t *testing.T) {
		is := is.New(t)
		org, _, err := carol.CreateOrg(gitea.CreateOrgOption{Name: "acme", Visibility: gitea.VisibleTypePublic})
		is.NoErr(err)
		team, _, err := carol.CreateTeam("acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode}})
		is.NoErr(err)
		_, err = carol.AddTeamMember(team.ID, "mona")
		is.NoErr(err)

		resp, err := carol.CreateOrgActionSecret("acme", "registry", gitea.CreateOrUpdateSecretOption{Data: "org-value", Description: "d"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		resp, err = carol.CreateOrgActionSecret("acme", "REGISTRY", gitea.CreateOrUpdateSecretOption{Data: "org-value-2", Description: "d2"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		list, resp, err := carol.ListOrgActionSecret("acme", gitea.ListOrgActionSecretOption{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(list), 1)
		is.Equal(list[0].Name, "REGISTRY")
		is.Equal(list[0].Description, "d2")
		stored := storedSecret(t, srv, actions.AccountSecrets(org.ID), "REGISTRY")
		is.True(strings.HasPrefix(stored.Data, "v1:") && !strings.Contains(stored.Data, "org-value"))

		// Access: owners and the site admin; members, outsiders and anonymous callers not.
		for _, rt := range []struct{ method, path string }{
			{"GET", "/orgs/acme/actions/secrets"}, {"PUT", "/orgs/acme/actions/secrets/X"}, {"DELETE", "/orgs/acme/actions/secrets/REGISTRY"},
		} {
			body := map[string]string{"data": "x"}
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("mona")...), http.StatusForbidden, msgOrgOwnerOnly)
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("sam")...), http.StatusForbidden, msgOrgOwnerOnly)
		}
		assertAPIError(t, srv.Do("GET", "/orgs/nope/actions/secrets", nil, basicAs("carol")...), http.StatusNotFound, "")
		is.Equal(srv.Do("GET", "/orgs/acme/actions/secrets", nil, socialAdmin(srv)...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/orgs/acme/actions/secrets/BY_ADMIN", map[string]string{"data": "x"}, socialAdmin(srv)...).Status, http.StatusCreated)
		scopeWantDenied(is, srv.Do("GET", "/orgs/acme/actions/secrets", nil, tokenHeader(srv, "carol", "read:repository")...),
			"read:organization", "read:repository")
		scopeWantDenied(is, srv.Do("PUT", "/orgs/acme/actions/secrets/X", map[string]string{"data": "x"}, tokenHeader(srv, "carol", "read:organization")...),
			"write:organization", "read:organization")
		is.Equal(srv.Do("PUT", "/orgs/acme/actions/secrets/BY_TOKEN", map[string]string{"data": "x"},
			tokenHeader(srv, "carol", "write:organization")...).Status, http.StatusCreated)

		// On the organisation's repositories RO lets its owners in, not its members;
		// the organisation's secrets are not the repository's.
		_, _, err = carol.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "svc"})
		is.NoErr(err)
		_, err = carol.AddTeamRepository(team.ID, "acme", "svc")
		is.NoErr(err)
		is.Equal(srv.Do("PUT", "/repos/acme/svc/actions/secrets/REPO_ONLY", map[string]string{"data": "x"}, basicAs("carol")...).Status,
			http.StatusCreated)
		assertAPIError(t, srv.Do("GET", "/repos/acme/svc/actions/secrets", nil, basicAs("mona")...), http.StatusForbidden, msgRepoOwner)
		repoList, _, err := carol.ListRepoActionSecret("acme", "svc", gitea.ListRepoActionSecretOption{})
		is.NoErr(err)
		is.Equal(len(repoList), 1)
		is.Equal(repoList[0].Name, "REPO_ONLY")

		resp, err = carol.DeleteOrgActionSecret("acme", "registry")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = carol.DeleteOrgActionSecret("acme", "registry")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("user", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.CreateUserActionSecret("npm_token", gitea.CreateOrUpdateSecretOption{Data: "user-value-1"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		resp, err = carol.CreateUserActionSecret("NPM_TOKEN", gitea.CreateOrUpdateSecretOption{Data: "user-value-2", Description: "npm"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		stored := storedSecret(t, srv, actions.AccountSecrets(carolUser.ID), "NPM_TOKEN")
		is.Equal(stored.Description, "npm")
		is.True(strings.HasPrefix(stored.Data, "v1:") && !strings.Contains(stored.Data, "user-value"))

		// Another user's secret of the same name is their own.
		is.Equal(srv.Do("PUT", "/user/actions/secrets/NPM_TOKEN", map[string]string{"data": "sam's"}, basicAs("sam")...).Status, http.StatusCreated)
		is.Equal(storedSecret(t, srv, actions.AccountSecrets(carolUser.ID), "NPM_TOKEN").ID, stored.ID)
		assertAPIError(t, srv.Do("PUT", "/user/actions/secrets/GITEA_X", map[string]string{"data": "x"}, basicAs("sam")...),
			http.StatusUnprocessableEntity, "secretname: invalid secret name")

		// Access: signed in, with the user scope.
		assertAPIError(t, srv.Do("PUT", "/user/actions/secrets/X", map[string]string{"data": "x"}), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("DELETE", "/user/actions/secrets/NPM_TOKEN", nil), http.StatusUnauthorized, msgTokenRequired)
		scopeWantDenied(is, srv.Do("PUT", "/user/actions/secrets/X", map[string]string{"data": "x"}, tokenHeader(srv, "carol", "read:user")...),
			"write:user", "read:user")
		is.Equal(srv.Do("PUT", "/user/actions/secrets/BY_TOKEN", map[string]string{"data": "x"},
			tokenHeader(srv, "carol", "write:user")...).Status, http.StatusCreated)

		resp, err = carol.DeleteUserActionSecret("npm_token")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = carol.DeleteUserActionSecret("npm_token")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// sam's stays.
		sam, _, err := srv.AdminClient().GetUserInfo("sam")
		is.NoErr(err)
		storedSecret(t, srv, actions.AccountSecrets(sam.ID), "NPM_TOKEN")
	})

	t.Run("repository access", func(t *testing.T) {
		is := is.New(t)
		body := map[string]string{"data": "x"}
		for _, rt := range []struct{ method, path string }{
			{"GET", "/repos/carol/app/actions/secrets"}, {"PUT", "/repos/carol/app/actions/secrets/X"},
			{"DELETE", "/repos/carol/app/actions/secrets/A_TOKEN"},
		} {
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
			// Outsiders, readers, writers and collaborators with admin are no owners.
			for _, who := range []string{"sam", "rita", "wendy", "ada"} {
				assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs(who)...), http.StatusForbidden, msgRepoOwner)
			}
		}
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/actions/secrets", nil, basicAs("sam")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("PUT", "/repos/carol/hidden/actions/secrets/X", body, basicAs("sam")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/carol/nope/actions/secrets", nil, basicAs("carol")...), http.StatusNotFound, "")
		// The site admin manages any repository's secrets.
		is.Equal(srv.Do("GET", "/repos/carol/app/actions/secrets", nil, socialAdmin(srv)...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/repos/carol/hidden/actions/secrets/BY_ADMIN", body, socialAdmin(srv)...).Status, http.StatusCreated)
		// Tokens: the repository scope, and public repositories only when so limited.
		scopeWantDenied(is, srv.Do("GET", "/repos/carol/app/actions/secrets", nil, tokenHeader(srv, "carol", "read:user")...),
			"read:repository", "read:user")
		scopeWantDenied(is, srv.Do("PUT", "/repos/carol/app/actions/secrets/X", body, tokenHeader(srv, "carol", "read:repository")...),
			"write:repository", "read:repository")
		is.Equal(srv.Do("PUT", "/repos/carol/app/actions/secrets/BY_TOKEN", body, tokenHeader(srv, "carol", "write:repository")...).Status,
			http.StatusCreated)
		publicOnly := tokenHeader(srv, "carol", "public-only", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/app/actions/secrets", nil, publicOnly...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/actions/secrets", nil, publicOnly...), http.StatusForbidden, msgPublicOnly)
	})

	t.Run("go with their repository", func(t *testing.T) {
		is := is.New(t)
		gone := createRepoAs(t, srv, "carol", "gone", false)
		resp, err := carol.CreateRepoActionSecret("carol", "gone", "X", gitea.CreateOrUpdateSecretOption{Data: "x"})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		_, err = carol.DeleteRepo("carol", "gone")
		is.NoErr(err)
		list, total, err := stores.ActionSecrets.List(t.Context(), actions.RepoSecrets(gone.ID), firstSecretsPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
	})
}

var firstSecretsPage = ports.ListOptions{Page: 1, Limit: 50}

// storedSecret reads a secret as the store keeps it (its value sealed).
func storedSecret(t *testing.T, srv *testserver.Server, owner actions.SecretOwner, name string) *actions.Secret {
	t.Helper()
	s, err := srv.App.DB.Stores().ActionSecrets.Get(t.Context(), owner, name)
	if err != nil {
		t.Fatalf("stored secret %s: %v", name, err)
	}
	return s
}

// assertNotOnDisk fails when the SQLite database's files hold plain;
// Postgres keeps its files elsewhere, and there the store's column is what
// is checked.
func assertNotOnDisk(t *testing.T, srv *testserver.Server, plain string) {
	t.Helper()
	if onDisk(t, srv, plain) {
		t.Fatalf("the database's files hold a secret's value in clear")
	}
}

// onDisk reports whether a file of a SQLite database in the data directory
// (with its write-ahead log) holds text.
func onDisk(t *testing.T, srv *testserver.Server, text string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(srv.DataDir, "*.db*"))
	if err != nil {
		t.Fatal(err)
	}
	if srv.App.DB.Dialect() == "sqlite" && len(files) == 0 {
		t.Fatalf("no database file under %s", srv.DataDir)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(text)) {
			return true
		}
	}
	return false
}
