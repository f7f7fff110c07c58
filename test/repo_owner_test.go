package test

import (
	"net/http"
	"os"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestRenamingAnOwnerMovesItsRepositories checks that an account rename
// carries its repositories along on disk, and that the old path redirects.
func TestRenamingAnOwnerMovesItsRepositories(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "Demo", AutoInit: true})
		is.True(dirExists(repoDir(srv, "alice", "demo")))

		_, err := srv.AdminClient().AdminRenameUser("alice", gitea.RenameUserOption{NewUsername: "alicia"})
		is.NoErr(err)
		is.True(!dirExists(repoDir(srv, "alice", "demo")))
		is.True(dirExists(repoDir(srv, "alicia", "demo")))

		r, _, err := srv.Client().GetRepo("alicia", "Demo")
		is.NoErr(err)
		is.Equal(r.FullName, "alicia/Demo")
		is.Equal(r.Owner.UserName, "alicia")
		work := cloneRepo(t, srv, "alicia", "demo")
		is.Equal(gitRun(t, work, "log", "--format=%s"), "Initial commit\n")

		resp := srv.Do("GET", "/repos/alice/Demo/topics", nil)
		is.Equal(resp.Status, http.StatusMovedPermanently)
		is.Equal(resp.Header.Get("Location"), "/api/v1/repos/alicia/Demo/topics")
		resp = srv.Do("PUT", "/repos/alice/Demo/topics/go", nil, basicAs("alicia")...)
		is.Equal(resp.Status, http.StatusTemporaryRedirect)

		// A new account under the old name starts with no repositories.
		no := false
		_, _, err = srv.AdminClient().AdminCreateUser(gitea.CreateUserOption{
			Username: "alice", Email: "alice2@example.com", Password: userPassword, MustChangePassword: &no,
		})
		is.NoErr(err)
		createRepo(t, srv.Client(gitea.SetBasicAuth("alice", userPassword)), gitea.CreateRepoOption{Name: "Demo"})
		r, _, err = srv.Client().GetRepo("alice", "Demo")
		is.NoErr(err)
		is.True(r.Empty)
	})
}

// TestDeletingAnOwnerOfRepositoriesIsRefused checks Gitea's 422 for an account that still owns repositories.
func TestDeletingAnOwnerOfRepositoriesIsRefused(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	createRepo(t, bob, gitea.CreateRepoOption{Name: "keep"})
	resp := srv.Do("DELETE", "/admin/users/bob", nil, adminHeader(srv)...)
	assertInvalid(t, resp, "username")
	_, _, err := srv.Client().GetRepo("bob", "keep")
	is.NoErr(err)

	_, err = bob.DeleteRepo("bob", "keep")
	is.NoErr(err)
	resp = srv.Do("DELETE", "/admin/users/bob", nil, adminHeader(srv)...)
	is.Equal(resp.Status, http.StatusNoContent)
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
