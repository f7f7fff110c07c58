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

// TestGoingPrivateClearsStarsAndStrangersWatches checks Gitea's rule: a
// repository made private loses its stars and the watchers who can no longer
// read it; its owner and collaborators keep watching.
func TestGoingPrivateClearsStarsAndStrangersWatches(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "open"})
		read := gitea.AccessModeRead
		_, err := alice.AddCollaborator("alice", "open", "bob", gitea.AddCollaboratorOption{Permission: &read})
		is.NoErr(err)
		for _, c := range []*gitea.Client{bob, carol} {
			_, err = c.StarRepo("alice", "open")
			is.NoErr(err)
			_, err = c.WatchRepo("alice", "open")
			is.NoErr(err)
		}
		r, _, err := alice.GetRepo("alice", "open")
		is.NoErr(err)
		is.Equal(r.Stars, 2)
		is.Equal(r.Watchers, 3)

		private := true
		r, _, err = alice.EditRepo("alice", "open", gitea.EditRepoOption{Private: &private})
		is.NoErr(err)
		is.True(r.Private)
		is.Equal(r.Stars, 0)
		is.Equal(r.Watchers, 2) // alice and bob, the collaborator
		var watchers []gitea.User
		srv.Do("GET", "/repos/alice/open/subscribers", nil, basicAs("alice")...).Decode(t, &watchers)
		names := []string{}
		for _, w := range watchers {
			names = append(names, w.UserName)
		}
		is.Equal(names, []string{"alice", "bob"})
		ok, _, err := bob.IsRepoStarring("alice", "open")
		is.NoErr(err)
		is.True(!ok)
	})
}
