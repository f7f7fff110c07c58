package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestAdminUserRepos covers POST /admin/users/{username}/repos: a site
// admin creates a repository owned by a user or an organisation.
func TestAdminUserRepos(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		admin := srv.AdminClient()
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		orgCreate(t, bobC, "acme", gitea.VisibleTypePublic)

		t.Run("for a user", func(t *testing.T) {
			is := is.New(t)
			r, resp, err := admin.AdminCreateRepo("bob", gitea.CreateRepoOption{Name: "tools", Description: "d",
				Private: true, AutoInit: true, DefaultBranch: "trunk"})
			assertSDKStatus(t, resp, err, http.StatusCreated)
			is.Equal(r.FullName, "bob/tools")
			is.Equal(r.Owner.UserName, "bob")
			is.True(r.Private)
			is.Equal(r.DefaultBranch, "trunk")
			is.True(!r.Empty) // auto_init committed
			// The owner sees it as its own.
			got, _, err := bobC.GetRepo("bob", "tools")
			is.NoErr(err)
			is.Equal(got.ID, r.ID)
			is.True(got.Permissions.Admin)
		})

		t.Run("for an organisation", func(t *testing.T) {
			is := is.New(t)
			var r gitea.Repository
			blockWant(t, srv, "POST", "/admin/users/acme/repos", map[string]any{"name": "site"}, http.StatusCreated, "",
				adminHeader(srv)...).Decode(t, &r)
			is.Equal(r.FullName, "acme/site")
			is.Equal(r.Owner.UserName, "acme")
			is.True(r.Empty)
		})

		t.Run("errors", func(t *testing.T) {
			h := adminHeader(srv)
			blockWant(t, srv, "POST", "/admin/users/nobody/repos", map[string]any{"name": "x"}, http.StatusNotFound, "", h...)
			blockWant(t, srv, "POST", "/admin/users/bob/repos", map[string]any{"name": "TOOLS"}, http.StatusConflict,
				"The repository with the same name already exists.", h...)
			assertInvalid(t, srv.Do("POST", "/admin/users/bob/repos", map[string]any{"name": "a b"}, h...), "Name")
			assertInvalid(t, srv.Do("POST", "/admin/users/bob/repos", map[string]any{"name": ""}, h...), "Name")
			assertInvalid(t, srv.Do("POST", "/admin/users/bob/repos", map[string]any{"name": "ok", "trust_model": "x"}, h...), "TrustModel")
			assertAPIError(t, srv.Do("POST", "/admin/users/bob/repos", "{", h...), http.StatusBadRequest, "")
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			body := map[string]any{"name": "sneaky"}
			assertAPIError(t, srv.Do("POST", "/admin/users/bob/repos", body), http.StatusUnauthorized, orgMsgNoToken)
			r := srv.Do("POST", "/admin/users/bob/repos", body, basicAs("bob")...)
			is.Equal(r.Status, http.StatusForbidden) // even for oneself: site admins only
			// Refused before the account is looked up: no hint about who exists.
			is.Equal(srv.Do("POST", "/admin/users/nobody/repos", body, basicAs("bob")...).Status, http.StatusForbidden)
			blockWant(t, srv, "GET", "/repos/bob/sneaky", nil, http.StatusNotFound, "", adminHeader(srv)...)
		})
	})
}
