package test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// packShape is what a repository's objects/pack holds: the packs git would
// roll together (no cruft, kept or unfinished ones) and how many of them
// have a reachability bitmap.
type packShape struct{ packs, bitmaps int }

func packShapeOf(t *testing.T, dir string) packShape {
	t.Helper()
	packDir := filepath.Join(dir, "objects", "pack")
	names, err := filepath.Glob(filepath.Join(packDir, "pack-*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	var s packShape
	for _, n := range names {
		base := strings.TrimSuffix(n, ".pack")
		if pathExists(base+".mtimes") || pathExists(base+".keep") || !pathExists(base+".idx") {
			continue
		}
		s.packs++
		if pathExists(base + ".bitmap") {
			s.bitmaps++
		}
	}
	return s
}

// waitPackShape waits until dir's packs are want.
func waitPackShape(t *testing.T, dir string, want packShape) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := packShapeOf(t, dir)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %+v, want %+v", dir, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// commitManyFiles commits n new files (more objects than git's
// receive.unpackLimit, so that the push keeps them as a pack).
func commitManyFiles(t *testing.T, dir, prefix string, n int) {
	t.Helper()
	for i := range n {
		name := filepath.Join(dir, fmt.Sprintf("%s-%03d.txt", prefix, i))
		if err := os.WriteFile(name, []byte(fmt.Sprintf("%s %d\n", prefix, i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	httpGitOK(t, dir, "add", ".")
	httpGitOK(t, dir, "commit", "-q", "-m", prefix)
}

// TestGitHousekeepingAfterPushes: each push leaves a pack without a
// bitmap; the housekeeping it queues makes the repository one pack with its
// bitmap again, and the repository serves the same history over HTTP and
// the API afterwards.
func TestGitHousekeepingAfterPushes(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.HousekeepingDelay = 0
		}))...)
		admin := srv.AdminClient()
		createRepo(t, admin, gitea.CreateRepoOption{Name: "kept"})
		dir := repoDir(srv, "admin", "kept")
		remote := httpGitURL(srv, "admin", "kept", "admin", srv.AdminPassword)

		work := httpGitWork(t, "main")
		commitManyFiles(t, work, "first", 150)
		httpGitOK(t, work, "push", "-q", remote, "main")
		waitPackShape(t, dir, packShape{packs: 1, bitmaps: 1})

		commitManyFiles(t, work, "second", 150)
		httpGitOK(t, work, "push", "-q", remote, "main")
		waitPackShape(t, dir, packShape{packs: 1, bitmaps: 1})

		head := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
		clone := httpGitClone(t, httpGitURL(srv, "admin", "kept", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, clone, "rev-parse", "HEAD")), head)
		is.Equal(strings.TrimSpace(httpGitOK(t, clone, "rev-list", "--count", "HEAD")), "3")
		raw, _, err := admin.GetFile("admin", "kept", "main", "second-149.txt")
		is.NoErr(err)
		is.Equal(string(raw), "second 149\n")
		httpGitOK(t, dir, "fsck", "--no-progress")
	})
}

// TestGitHousekeepingOffAndGitGCRepos: with the housekeeping after pushes
// off, pushes leave their packs; the git_gc_repos task, which only a site
// administrator may run, collects every repository.
func TestGitHousekeepingOffAndGitGCRepos(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.HousekeepingDelay = -1
		}))...)
		admin := srv.AdminClient()
		createRepo(t, admin, gitea.CreateRepoOption{Name: "pushed"})
		createRepo(t, admin, gitea.CreateRepoOption{Name: "initialised", AutoInit: true})
		dir := repoDir(srv, "admin", "pushed")
		remote := httpGitURL(srv, "admin", "pushed", "admin", srv.AdminPassword)
		work := httpGitWork(t, "main")
		commitManyFiles(t, work, "first", 150)
		httpGitOK(t, work, "push", "-q", remote, "main")
		commitManyFiles(t, work, "second", 150)
		httpGitOK(t, work, "push", "-q", remote, "main")
		is.Equal(packShapeOf(t, dir), packShape{packs: 2})

		is.Equal(cronTasks(t, admin)[site.CronGitGCRepos].Schedule, "@every 72h")
		newAccount(t, srv, "mallory", gitea.VisibleTypePublic)
		resp, err := userClient(srv, "mallory").RunCronTasks(site.CronGitGCRepos)
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusForbidden)
		is.Equal(packShapeOf(t, dir), packShape{packs: 2})

		resp, err = admin.RunCronTasks(site.CronGitGCRepos)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		waitCronRuns(t, admin, site.CronGitGCRepos, 1)
		is.Equal(packShapeOf(t, dir), packShape{packs: 1, bitmaps: 1})
		is.Equal(packShapeOf(t, repoDir(srv, "admin", "initialised")), packShape{packs: 1, bitmaps: 1})

		runs, err := srv.App.DB.Stores().CronTasks.All(t.Context())
		is.NoErr(err)
		for _, r := range runs {
			if r.Name == site.CronGitGCRepos {
				is.Equal(r.Message, "") // no repository failed
			}
		}
		clone := httpGitClone(t, httpGitURL(srv, "admin", "pushed", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, clone, "rev-list", "--count", "HEAD")), "3")
	})
}
