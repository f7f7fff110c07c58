package test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// unadoptedBare makes owner/name's bare repository on disk behind the
// server's back, with HEAD on branch and one commit pushed on it (none
// when branch is ""), as an operator copying repositories in would.
func unadoptedBare(t *testing.T, srv *testserver.Server, owner, name, branch string) {
	t.Helper()
	dir := repoDir(srv, owner, name)
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	head := branch
	if head == "" {
		head = "main"
	}
	gitRun(t, t.TempDir(), "init", "-q", "--bare", "-b", head, dir)
	if branch == "" {
		return
	}
	work := filepath.Join(t.TempDir(), "work")
	gitRun(t, t.TempDir(), "init", "-q", "-b", branch, work)
	gitCommitFile(t, work, "README.md", "on disk\n", "first")
	gitRun(t, work, "push", "-q", dir, branch, branch+":side")
}

// TestAdminUnadoptedRepos covers 4.9's unadopted repositories: directories
// under the repository root without a record are listed, adopted (the record
// made from what is on disk) or deleted, by site admins only.
func TestAdminUnadoptedRepos(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		h := adminHeader(srv)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		orgCreate(t, bobC, "acme", gitea.VisibleTypePublic)
		createRepo(t, bobC, gitea.CreateRepoOption{Name: "known"})
		unadoptedBare(t, srv, "bob", "tools", "trunk")
		unadoptedBare(t, srv, "acme", "site", "")
		unadoptedBare(t, srv, "bob", "junk", "main")
		unadoptedBare(t, srv, "gone", "orphan", "main") // no such account
		// Not repositories: the trash, a dot-directory, a directory without .git.
		for _, d := range []string{".trash/x.git", "bob/.hidden.git", "bob/plain"} {
			if err := os.MkdirAll(filepath.Join(srv.DataDir, "repos", d), 0o700); err != nil {
				t.Fatal(err)
			}
		}

		t.Run("list", func(t *testing.T) {
			is := is.New(t)
			var names []string
			r := blockWant(t, srv, "GET", "/admin/unadopted", nil, http.StatusOK, "", h...)
			r.Decode(t, &names)
			is.Equal(names, []string{"acme/site", "bob/junk", "bob/tools", "gone/orphan"})
			is.Equal(r.Header.Get("X-Total-Count"), "4")
			blockWant(t, srv, "GET", "/admin/unadopted?page=2&limit=3", nil, http.StatusOK, "", h...).Decode(t, &names)
			is.Equal(names, []string{"gone/orphan"})
			blockWant(t, srv, "GET", "/admin/unadopted?pattern=bob/t*", nil, http.StatusOK, "", h...).Decode(t, &names)
			is.Equal(names, []string{"bob/tools"})
			blockWant(t, srv, "GET", "/admin/unadopted?pattern=orph", nil, http.StatusOK, "", h...).Decode(t, &names)
			is.Equal(names, []string{"gone/orphan"})
		})

		t.Run("adopt", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "POST", "/admin/unadopted/bob/tools", nil, http.StatusNoContent, "", h...)
			r, _, err := srv.AdminClient().GetRepo("bob", "tools")
			is.NoErr(err)
			is.Equal(r.DefaultBranch, "trunk")
			is.True(!r.Empty)
			is.True(r.Private) // as Gitea adopts
			is.True(r.Size > 0)
			branches, _, err := bobC.ListRepoBranches("bob", "tools", gitea.ListRepoBranchesOptions{})
			is.NoErr(err)
			is.Equal(len(branches), 2) // trunk and side
			// Cloned through Depot, with the owner's rights.
			dst := httpGitClone(t, httpGitURL(srv, "bob", "tools", "bob", userPassword))
			got, err := os.ReadFile(filepath.Join(dst, "README.md"))
			is.NoErr(err)
			is.Equal(string(got), "on disk\n")

			// An organisation's empty repository.
			blockWant(t, srv, "POST", "/admin/unadopted/acme/site", nil, http.StatusNoContent, "", h...)
			r, _, err = srv.AdminClient().GetRepo("acme", "site")
			is.NoErr(err)
			is.True(r.Empty)
			is.Equal(r.DefaultBranch, "main")

			var names []string
			blockWant(t, srv, "GET", "/admin/unadopted", nil, http.StatusOK, "", h...).Decode(t, &names)
			is.Equal(names, []string{"bob/junk", "gone/orphan"})
		})

		t.Run("delete", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "DELETE", "/admin/unadopted/bob/junk", nil, http.StatusNoContent, "", h...)
			_, err := os.Stat(repoDir(srv, "bob", "junk"))
			is.True(os.IsNotExist(err))
			blockWant(t, srv, "DELETE", "/admin/unadopted/bob/junk", nil, http.StatusNotFound, "", h...)
		})

		t.Run("errors", func(t *testing.T) {
			is := is.New(t)
			for _, m := range []string{"POST", "DELETE"} {
				blockWant(t, srv, m, "/admin/unadopted/bob/known", nil, http.StatusConflict,
					"The repository with the same name already exists.", h...)
				blockWant(t, srv, m, "/admin/unadopted/bob/nothing", nil, http.StatusNotFound, "", h...)
				blockWant(t, srv, m, "/admin/unadopted/gone/orphan", nil, http.StatusNotFound, "", h...)
				is.Equal(srv.Do(m, "/admin/unadopted/bob/.hidden", nil, h...).Status, http.StatusUnprocessableEntity)
				// A ".." never reaches outside the root: refused or not found.
				for _, p := range []string{"/admin/unadopted/bob/..", "/admin/unadopted/bob/%2e%2e", "/admin/unadopted/../bob/tools",
					"/admin/unadopted/bob/..%2f..%2fx"} {
					st := srv.Do(m, p, nil, h...).Status
					is.True(st == http.StatusBadRequest || st == http.StatusNotFound || st == http.StatusUnprocessableEntity)
				}
			}
			_, err := os.Stat(repoDir(srv, "bob", "known"))
			is.NoErr(err) // the refused delete left the recorded repository alone
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			for _, c := range []struct{ method, path string }{
				{"GET", "/admin/unadopted"}, {"POST", "/admin/unadopted/gone/orphan"}, {"DELETE", "/admin/unadopted/gone/orphan"},
			} {
				is.Equal(srv.Do(c.method, c.path, nil).Status, http.StatusUnauthorized)
				is.Equal(srv.Do(c.method, c.path, nil, basicAs("bob")...).Status, http.StatusForbidden)
			}
			// A site admin's token needs the admin scope: read:admin lists, write:admin adopts.
			readOnly := []string{"Authorization", "token " + srv.CreateToken("admin", srv.AdminPassword, "read:admin")}
			repoOnly := []string{"Authorization", "token " + srv.CreateToken("admin", srv.AdminPassword, "write:repository")}
			is.Equal(srv.Do("GET", "/admin/unadopted", nil, readOnly...).Status, http.StatusOK)
			is.Equal(srv.Do("GET", "/admin/unadopted", nil, repoOnly...).Status, http.StatusForbidden)
			is.Equal(srv.Do("DELETE", "/admin/unadopted/bob/nothing", nil, readOnly...).Status, http.StatusForbidden)
			_, err := os.Stat(repoDir(srv, "gone", "orphan"))
			is.NoErr(err)
		})
	})
}
