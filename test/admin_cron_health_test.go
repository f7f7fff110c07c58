package test

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// corruptRepo damages owner/name's objects behind Depot's back: every
// loose object and pack is overwritten with garbage, as a failing disk
// would leave them.
func corruptRepo(t *testing.T, srv *testserver.Server, owner, name string) {
	t.Helper()
	objects := filepath.Join(repoDir(srv, owner, name), "objects")
	damaged := 0
	err := filepath.WalkDir(objects, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(objects, path)
		loose := len(filepath.Dir(rel)) == 2
		if !loose && !strings.HasSuffix(path, ".pack") {
			return nil
		}
		if err := os.Chmod(path, 0o644); err != nil {
			return err
		}
		damaged++
		return os.WriteFile(path, []byte("not a git object"), 0o644)
	})
	if err != nil || damaged == 0 {
		t.Fatalf("corrupt %s/%s: %v (%d files)", owner, name, err, damaged)
	}
}

// TestAdminCronRepoHealthCheck checks repo_health_check: run by an
// administrator through the job queue, it runs git fsck on every
// repository and keeps, as the run's message, the repositories that fail
// (a deliberately corrupted one), not the healthy ones.
func TestAdminCronRepoHealthCheck(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		admin := srv.AdminClient()
		createRepo(t, admin, gitea.CreateRepoOption{Name: "healthy", AutoInit: true})
		createRepo(t, admin, gitea.CreateRepoOption{Name: "broken", AutoInit: true})
		createRepo(t, admin, gitea.CreateRepoOption{Name: "empty"})
		corruptRepo(t, srv, "admin", "broken")

		is.Equal(cronTasks(t, admin)["repo_health_check"].Schedule, "@midnight")
		resp, err := admin.RunCronTasks("repo_health_check")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		waitCronRuns(t, admin, "repo_health_check", 1)

		runs, err := srv.App.DB.Stores().CronTasks.All(t.Context())
		is.NoErr(err)
		var message string
		for _, r := range runs {
			if r.Name == "repo_health_check" {
				message = r.Message
			}
		}
		is.True(strings.HasPrefix(message, "git fsck failed on 1 of 3 repositories"))
		is.True(strings.Contains(message, "admin/broken"))
		is.True(!strings.Contains(message, "admin/healthy"))
		is.True(!strings.Contains(message, "admin/empty"))

		// Repaired (here: deleted), the next run reports nothing.
		_, err = admin.DeleteRepo("admin", "broken")
		is.NoErr(err)
		_, err = admin.RunCronTasks("repo_health_check")
		is.NoErr(err)
		waitCronRuns(t, admin, "repo_health_check", 2)
		runs, err = srv.App.DB.Stores().CronTasks.All(t.Context())
		is.NoErr(err)
		for _, r := range runs {
			if r.Name == "repo_health_check" {
				is.Equal(r.Message, "")
			}
		}
	})
}
