package test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// pushTwoBranches makes alice/two on p.src with branches main and trunk
// (trunk one commit ahead) and trunk as its default branch.
func pushTwoBranches(t *testing.T, p *mirrorPair) {
	t.Helper()
	createRepo(t, p.alice, gitea.CreateRepoOption{Name: "two"})
	work := httpGitWork(t, "main")
	httpGitOK(t, work, "checkout", "-q", "-b", "trunk")
	httpGitCommit(t, work, "t.txt", "t\n", "on trunk")
	httpGitOK(t, work, "push", "-q", httpGitURL(p.src, "alice", "two", "alice", userPassword), "main", "trunk")
	setDefaultBranch(t, p.src, p.alice, "alice", "two", "trunk")
}

// setDefaultBranch makes branch owner/name's default branch on srv and checks
// that the bare repository's HEAD followed.
func setDefaultBranch(t *testing.T, srv *testserver.Server, c *gitea.Client, owner, name, branch string) {
	t.Helper()
	if _, _, err := c.EditRepo(owner, name, gitea.EditRepoOption{DefaultBranch: &branch}); err != nil {
		t.Fatalf("set default branch %s: %v", branch, err)
	}
	if got := serverHEAD(t, srv, owner, name); got != "refs/heads/"+branch {
		t.Fatalf("HEAD of %s/%s is %s, want refs/heads/%s", owner, name, got, branch)
	}
}

// serverHEAD is the ref HEAD names in the server's copy of owner/name.
func serverHEAD(t *testing.T, srv *testserver.Server, owner, name string) string {
	t.Helper()
	return strings.TrimSpace(httpGitOK(t, repoDir(srv, owner, name), "symbolic-ref", "HEAD"))
}

func TestMigrateKeepsRemoteDefaultBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := mirrorSetup(t)
	pushTwoBranches(t, p)

	r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "two", "", ""), RepoName: "two"})
	is.NoErr(err)
	is.Equal(r.DefaultBranch, "trunk") // not the main both servers start repositories on
	is.Equal(serverHEAD(t, p.dst, "bob", "two"), "refs/heads/trunk")
	got, _, err := p.bob.GetRepo("bob", "two")
	is.NoErr(err)
	is.Equal(got.DefaultBranch, "trunk")
	// A clone checks out trunk, as a clone of the source does.
	dir := httpGitClone(t, httpGitURL(p.dst, "bob", "two", "", ""))
	is.Equal(strings.TrimSpace(httpGitOK(t, dir, "symbolic-ref", "HEAD")), "refs/heads/trunk")
	is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), httpGitRef(t, p.src, "alice", "two", "refs/heads/trunk"))
	httpGitFsck(t, p.dst, "bob", "two")
}

func TestMirrorFollowsRemoteDefaultBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := mirrorSetup(t)
	pushTwoBranches(t, p)

	r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "two", "", ""),
		RepoName: "two", Mirror: true, MirrorInterval: "0"})
	is.NoErr(err)
	is.True(r.Mirror)
	is.Equal(r.DefaultBranch, "trunk")
	first := r.MirrorUpdated
	is.True(!first.IsZero())

	// The source switches its default branch; the next sync follows.
	setDefaultBranch(t, p.src, p.alice, "alice", "two", "main")
	_, err = p.bob.MirrorSync("bob", "two")
	is.NoErr(err)
	mirrorEventually(t, "the mirror to follow the default branch", func() bool {
		got, _, err := p.bob.GetRepo("bob", "two")
		return err == nil && got.DefaultBranch == "main"
	})
	is.Equal(serverHEAD(t, p.dst, "bob", "two"), "refs/heads/main")
	got, _, err := p.bob.GetRepo("bob", "two")
	is.NoErr(err)
	is.True(!got.MirrorUpdated.Before(first)) // the sync is recorded
	httpGitFsck(t, p.dst, "bob", "two")

	// The branch that was the default before is deleted on the source: the
	// mirror loses it and keeps following main.
	httpGitOK(t, p.work, "push", "-q", httpGitURL(p.src, "alice", "two", "alice", userPassword), ":trunk")
	_, err = p.bob.MirrorSync("bob", "two")
	is.NoErr(err)
	mirrorEventually(t, "the mirror to drop trunk", func() bool {
		return httpGitRef(t, p.dst, "bob", "two", "refs/heads/trunk") == ""
	})
	got, _, err = p.bob.GetRepo("bob", "two")
	is.NoErr(err)
	is.Equal(got.DefaultBranch, "main")
}

func TestMirrorSyncUpdatesRepository(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		p := mirrorSetup(t, opts...)
		before := time.Now().Add(-time.Minute)
		m, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "pub", "", ""),
			RepoName: "mirror", Mirror: true})
		is.NoErr(err)
		is.True(m.MirrorUpdated.After(before))
		_, _, err = p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "pub", "", ""),
			RepoName: "copy"})
		is.NoErr(err)
		createRepo(t, p.bob, gitea.CreateRepoOption{Name: "plain", AutoInit: true})

		// One repository.
		got, resp, err := p.bob.GetRepo("bob", "mirror")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(got.MirrorUpdated.Equal(m.MirrorUpdated))
		for _, name := range []string{"copy", "plain"} {
			got, _, err := p.bob.GetRepo("bob", name)
			is.NoErr(err)
			is.True(got.MirrorUpdated.IsZero()) // no mirror, no sync time
		}

		// Listings: the caller's, a user's and a search, the mirror's time
		// on the mirror only.
		check := func(what string, list []*gitea.Repository) {
			t.Helper()
			seen := 0
			for _, r := range list {
				switch r.Name {
				case "mirror":
					seen++
					if !r.MirrorUpdated.Equal(m.MirrorUpdated) {
						t.Errorf("%s: mirror_updated %v, want %v", what, r.MirrorUpdated, m.MirrorUpdated)
					}
				case "copy", "plain":
					seen++
					if !r.MirrorUpdated.IsZero() {
						t.Errorf("%s: %s has mirror_updated %v", what, r.Name, r.MirrorUpdated)
					}
				}
			}
			if seen != 3 {
				t.Errorf("%s: saw %d of the 3 repositories", what, seen)
			}
		}
		mine, _, err := p.bob.ListMyRepos(gitea.ListReposOptions{})
		is.NoErr(err)
		check("GET /user/repos", mine)
		users, _, err := p.bob.ListUserRepos("bob", gitea.ListReposOptions{})
		is.NoErr(err)
		check("GET /users/bob/repos", users)
		found, _, err := p.bob.SearchRepos(gitea.SearchRepoOptions{OwnerID: p.bobUser.ID})
		is.NoErr(err)
		check("GET /repos/search", found)
		// Only mirrors, through the search's filter.
		mirrorsOnly, _, err := p.bob.SearchRepos(gitea.SearchRepoOptions{OwnerID: p.bobUser.ID, Type: gitea.RepoTypeMirror})
		is.NoErr(err)
		is.Equal(len(mirrorsOnly), 1)
		is.True(mirrorsOnly[0].MirrorUpdated.Equal(m.MirrorUpdated))

		// A sync moves it forward.
		httpGitCommit(t, p.work, "n.txt", "n\n", "new")
		httpGitOK(t, p.work, "push", "-q", "origin", "main")
		_, err = p.bob.MirrorSync("bob", "mirror")
		is.NoErr(err)
		mirrorEventually(t, "the sync to be recorded", func() bool {
			r, _, err := p.bob.GetRepo("bob", "mirror")
			return err == nil && r.MirrorUpdated.After(m.MirrorUpdated)
		})
		// Anonymous readers of the public mirror see it too.
		r := p.dst.Do("GET", "/repos/bob/mirror", nil)
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.Contains(string(r.Body), `"mirror_updated":"`))
		is.True(!strings.Contains(string(r.Body), `"mirror_updated":"0001-01-01`))
	})
}
