package test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// cronDelivery records, behind the API's back, a delivery of hook h last
// attempted at delivered, as a delivery of that age would be.
func cronDelivery(t *testing.T, srv *testserver.Server, h *gitea.Hook, repoID int64, uuid string, delivered time.Time) int64 {
	t.Helper()
	st := srv.App.DB.Stores()
	d := &hook.Delivery{UUID: uuid, HookID: h.ID, RepoID: repoID, Event: "push", EventType: "push",
		Payload: []byte(`{}`), Created: delivered}
	if err := st.HookDeliveries.Create(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	if err := st.HookDeliveries.RecordAttempt(t.Context(), d.ID, hook.Attempt{RequestURL: h.Config["url"],
		RequestMethod: "POST", ResponseStatus: 200, Success: true, Delivered: delivered}); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

// cronTasks lists every task, by name.
func cronTasks(t *testing.T, c *gitea.Client) map[string]*gitea.CronTask {
	t.Helper()
	list, _, err := c.ListCronTasks(gitea.ListCronTaskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*gitea.CronTask{}
	for _, task := range list {
		out[task.Name] = task
	}
	return out
}

// waitCronRuns waits until task has run runs times and returns it.
func waitCronRuns(t *testing.T, c *gitea.Client, name string, runs int64) *gitea.CronTask {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		task := cronTasks(t, c)[name]
		if task != nil && task.ExecTimes >= runs {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not run %d times: %+v", name, runs, task)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAdminCron covers 4.9's cron tasks: the site's periodic tasks are
// listed with their schedules and runs, and a run asked for goes through
// the job queue, does the task's work and is counted; site admins only.
func TestAdminCron(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.Cron = site.DefaultCron()
			actions := s.Cron[site.CronDeleteOldActions]
			actions.OlderThan = time.Hour
			s.Cron[site.CronDeleteOldActions] = actions
			artifacts := s.Cron[site.CronCleanupArtifacts]
			artifacts.RunAtStart = false // so that no task ran before the list below
			s.Cron[site.CronCleanupArtifacts] = artifacts
			pkgs := s.Cron[site.CronCleanupPackages]
			pkgs.RunAtStart = false
			s.Cron[site.CronCleanupPackages] = pkgs
		}))...)
		admin := srv.AdminClient()
		started := time.Now()

		t.Run("list", func(t *testing.T) {
			is := is.New(t)
			list, resp, err := admin.ListCronTasks(gitea.ListCronTaskOptions{})
			is.NoErr(err)
			is.Equal(resp.Header.Get("X-Total-Count"), "7")
			is.Equal(len(list), 7)
			is.Equal(list[0].Name, "cleanup_artifacts") // by name
			is.Equal(list[0].Schedule, "@midnight")
			is.Equal(list[2].Name, "cleanup_packages")
			is.Equal(list[2].Schedule, "@midnight")
			is.Equal(list[4].Name, "git_gc_repos")
			is.Equal(list[4].Schedule, "@every 72h")
			is.True(list[4].Next.IsZero()) // off by default, as in Gitea
			is.Equal(list[5].Name, "repo_health_check")
			is.Equal(list[5].Schedule, "@midnight")
			list = slices.Delete(list, 4, 6)
			list = slices.Delete(list, 2, 3)[1:]
			is.Equal(list[0].Name, "cleanup_hook_task_table")
			is.Equal(list[0].Schedule, "@midnight")
			is.Equal(list[1].Name, "delete_old_actions")
			is.Equal(list[1].Schedule, "@every 168h")
			is.Equal(list[2].Name, "update_mirrors")
			is.Equal(list[2].Schedule, "@every 10m")
			for _, task := range list {
				is.True(task.Prev.IsZero()) // never ran
				is.Equal(task.ExecTimes, int64(0))
			}
			is.True(list[0].Next.After(started)) // scheduled at start
			is.True(list[1].Next.IsZero())       // off by default, as in Gitea
			next := list[2].Next.Sub(started)
			is.True(next > 9*time.Minute && next <= 10*time.Minute+time.Second)

			page, resp, err := admin.ListCronTasks(gitea.ListCronTaskOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
			is.NoErr(err)
			is.Equal(resp.Header.Get("X-Total-Count"), "7")
			is.Equal(len(page), 3)
			is.Equal(page[0].Name, "delete_old_actions")
			is.Equal(page[1].Name, "git_gc_repos")
			is.Equal(page[2].Name, "repo_health_check")
		})

		t.Run("cleanup_hook_task_table deletes old deliveries", func(t *testing.T) {
			is := is.New(t)
			repo := createRepo(t, admin, gitea.CreateRepoOption{Name: "hooked"})
			h, _, err := admin.CreateRepoHook("admin", "hooked", gitea.CreateHookOption{Type: gitea.HookTypeGitea,
				Config: map[string]string{"url": "https://example.com/hook", "content_type": "json"}, Events: []string{"push"},
				Active: true})
			is.NoErr(err)
			old := cronDelivery(t, srv, h, repo.ID, "0c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4be1", time.Now().Add(-8*24*time.Hour))
			recent := cronDelivery(t, srv, h, repo.ID, "0c9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4be2", time.Now().Add(-6*24*time.Hour))
			before := cronTasks(t, admin)["cleanup_hook_task_table"]

			resp, err := admin.RunCronTasks("cleanup_hook_task_table")
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusNoContent)
			task := waitCronRuns(t, admin, "cleanup_hook_task_table", 1)
			is.Equal(task.ExecTimes, int64(1))
			is.True(!task.Prev.Before(started.Truncate(time.Second))) // when the run started
			is.True(task.Next.Equal(before.Next))                     // the schedule is left as it was

			st := srv.App.DB.Stores()
			_, err = st.HookDeliveries.Get(context.Background(), old)
			is.True(errors.Is(err, errs.ErrNotFound)) // a week and a day old: deleted
			_, err = st.HookDeliveries.Get(context.Background(), recent)
			is.NoErr(err) // six days old: kept
		})

		t.Run("delete_old_actions deletes old activity records", func(t *testing.T) {
			is := is.New(t)
			repo := createRepo(t, admin, gitea.CreateRepoOption{Name: "busy"}) // recorded now
			st := srv.App.DB.Stores()
			is.NoErr(st.Activities.Add(t.Context(), []*activity.Activity{{UserID: 1, ActUserID: 1,
				OpType: activity.OpCreateRepo, RepoID: repo.ID, RepoOwnerID: 1, Created: time.Now().Add(-2 * time.Hour)}}))
			feed := func() []gitea.Activity {
				var list []gitea.Activity
				r := srv.Do("GET", "/repos/admin/busy/activities/feeds", nil, adminHeader(srv)...)
				is.Equal(r.Status, http.StatusOK)
				r.Decode(t, &list)
				return list
			}
			is.Equal(len(feed()), 2)

			resp, err := admin.RunCronTasks("delete_old_actions") // disabled, yet run when asked
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusNoContent)
			task := waitCronRuns(t, admin, "delete_old_actions", 1)
			is.True(task.Next.IsZero()) // still off
			list := feed()
			is.Equal(len(list), 1) // the record two hours old is gone
			is.True(list[0].Created.After(started.Add(-time.Minute)))
		})

		t.Run("update_mirrors runs when asked", func(t *testing.T) {
			is := is.New(t)
			resp, err := admin.RunCronTasks("update_mirrors")
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusNoContent)
			task := waitCronRuns(t, admin, "update_mirrors", 1)
			is.Equal(task.ExecTimes, int64(1))
			is.True(!task.Prev.IsZero())
		})

		t.Run("unknown task", func(t *testing.T) {
			is := is.New(t)
			resp, err := admin.RunCronTasks("delete_repo_archives")
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusNotFound)
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
			_, resp, err := bob.ListCronTasks(gitea.ListCronTaskOptions{})
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusForbidden)
			resp, err = bob.RunCronTasks("update_mirrors")
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusForbidden)
			resp, err = bob.RunCronTasks("no_such_task")
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusForbidden) // the refusal comes before the lookup

			anon := srv.Client()
			_, resp, err = anon.ListCronTasks(gitea.ListCronTaskOptions{})
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusUnauthorized)
			resp, err = anon.RunCronTasks("update_mirrors")
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusUnauthorized)

			// Nothing the refused calls asked for ran.
			is.Equal(cronTasks(t, admin)["update_mirrors"].ExecTimes, int64(1))
		})
	})
}

// TestAdminCronSettings: a disabled task is listed without a next run and
// still runs when asked; a task set to run at start has run once the
// server is up; the runs survive a restart.
func TestAdminCronSettings(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	settings := testserver.WithSettings(func(s *site.Settings) {
		s.Cron = site.DefaultCron()
		s.Cron[site.CronUpdateMirrors] = site.CronTask{Enabled: false, Schedule: "@every 10m"}
		hooks := s.Cron[site.CronCleanupHookTaskTable]
		hooks.RunAtStart = true
		s.Cron[site.CronCleanupHookTaskTable] = hooks
	})
	srv := testserver.Start(t, settings, testserver.WithDataDir(dir))
	admin := srv.AdminClient()
	waitCronRuns(t, admin, "cleanup_hook_task_table", 1)
	mirrors := cronTasks(t, admin)["update_mirrors"]
	is.True(mirrors.Next.IsZero())
	resp, err := admin.RunCronTasks("update_mirrors")
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	mirrors = waitCronRuns(t, admin, "update_mirrors", 1)
	is.True(mirrors.Next.IsZero()) // still not scheduled
	srv.Stop()

	// Restarted with both enabled: the counts stay, and the run at start
	// runs again.
	srv2 := testserver.Start(t, testserver.WithDataDir(dir), testserver.WithSettings(func(s *site.Settings) {
		s.Cron = site.DefaultCron()
		hooks := s.Cron[site.CronCleanupHookTaskTable]
		hooks.RunAtStart = true
		s.Cron[site.CronCleanupHookTaskTable] = hooks
	}))
	admin2 := srv2.Client(gitea.SetBasicAuth("admin", srv.AdminPassword))
	waitCronRuns(t, admin2, "cleanup_hook_task_table", 2)
	mirrors = cronTasks(t, admin2)["update_mirrors"]
	is.Equal(mirrors.ExecTimes, int64(1))
	is.True(!mirrors.Next.IsZero()) // scheduled again
}

// TestAdminCronUpdateMirrors: update_mirrors syncs a pull mirror whose
// scheduled sync is overdue and was never queued (its tick lost).
func TestAdminCronUpdateMirrors(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		p := mirrorSetup(t, opts...)
		srcPub := httpGitURL(p.src, "alice", "pub", "", "")
		dstMirror := httpGitURL(p.dst, "bob", "mirror", "", "")
		r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{
			CloneAddr: srcPub, RepoName: "mirror", Mirror: true, MirrorInterval: "8h"})
		is.NoErr(err)

		httpGitCommit(t, p.work, "c.txt", "c\n", "third")
		httpGitOK(t, p.work, "push", "-q", "origin", "main")
		want := mirrorRefs(t, srcPub)
		// The next sync was due an hour ago, and no job is queued for it: the
		// one queued for the instant eight hours ahead is superseded.
		is.NoErr(p.dst.App.DB.Stores().Mirrors.Schedule(t.Context(), r.ID, 8*time.Hour, time.Now().Add(-time.Hour)))
		time.Sleep(200 * time.Millisecond)
		is.True(!slices.Equal(mirrorRefs(t, dstMirror), want))

		admin := p.dst.AdminClient()
		resp, err := admin.RunCronTasks("update_mirrors")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		mirrorEventually(t, "update_mirrors to sync the overdue mirror", func() bool {
			return slices.Equal(mirrorRefs(t, dstMirror), want)
		})
		waitCronRuns(t, admin, "update_mirrors", 1)
		m, err := p.dst.App.DB.Stores().Mirrors.Get(t.Context(), r.ID)
		is.NoErr(err)
		is.True(m.NextUpdate.After(time.Now().Add(7 * time.Hour))) // the tick scheduled the next sync
	})
}
