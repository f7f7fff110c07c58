package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// An account in an organisation cannot be deleted until it leaves (Gitea's
// 422), so no organisation is left without an owner.
func TestOrgsMemberCannotBeDeleted(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, _ := httpGitSetup(t)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, _, err := bob.CreateOrg(gitea.CreateOrgOption{Name: "acme"})
	is.NoErr(err)

	r := srv.Do("DELETE", "/admin/users/bob", nil, adminHeader(srv)...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "username: user still has membership of organizations")
	r = srv.Do("GET", "/users/bob", nil)
	is.Equal(r.Status, http.StatusOK) // still there

	_, err = bob.DeleteOrg("acme")
	is.NoErr(err)
	r = srv.Do("DELETE", "/admin/users/bob", nil, adminHeader(srv)...)
	is.Equal(r.Status, http.StatusNoContent)
}
