package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// actionRunner registers a runner named name in scope.
func (f *fixture) actionRunner(scope actions.Scope, name string, labels ...string) *actions.Runner {
	f.t.Helper()
	r := &actions.Runner{UUID: actions.NewRunnerUUID(), Name: name, Scope: scope,
		TokenHash: actions.HashRunnerToken("token-" + name), Labels: labels, Version: "v1", Created: at(1)}
	if err := f.ActionRunners.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create runner %s: %v", name, err)
	}
	return r
}

var actionRunnerTests = map[string]func(t *testing.T, f *fixture){
	"ScopesKeepTheirRunners": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		repo := f.repo(ann, "code")
		mine := f.actionRunner(actions.OwnerScope(ann.ID), "mine", "linux", "arm64")
		ofRepo := f.actionRunner(actions.RepoScope(repo.ID), "repo")
		site := f.actionRunner(actions.Scope{}, "site")
		f.actionRunner(actions.RepoScope(repo.ID), "repo-2")

		got, err := f.ActionRunners.ByUUID(f.ctx, mine.UUID)
		is.NoErr(err)
		is.Equal(got.ID, mine.ID)
		is.Equal(got.Labels, []string{"linux", "arm64"})
		is.Equal(got.Scope, actions.OwnerScope(ann.ID))
		is.True(got.TokenMatches("token-mine"))
		is.True(got.LastOnline.IsZero())
		_, err = f.ActionRunners.ByUUID(f.ctx, "nope")
		isCategory(is, err, errs.ErrNotFound, "runner not found")

		_, err = f.ActionRunners.Get(f.ctx, actions.Scope{}, mine.ID) // another scope's
		isCategory(is, err, errs.ErrNotFound, "runner not found")
		got, err = f.ActionRunners.Get(f.ctx, actions.Scope{}, site.ID)
		is.NoErr(err)
		is.Equal(got.Name, "site")

		list, total, err := f.ActionRunners.List(f.ctx, actions.RepoScope(repo.ID), ports.ListOptions{Page: 2, Limit: 1})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(len(list), 1)
		is.Equal(list[0].Name, "repo-2")

		err = f.ActionRunners.Delete(f.ctx, actions.OwnerScope(ann.ID), ofRepo.ID) // another scope's
		isCategory(is, err, errs.ErrNotFound, "runner not found")
		is.NoErr(f.ActionRunners.Delete(f.ctx, actions.RepoScope(repo.ID), ofRepo.ID))
		_, total, err = f.ActionRunners.List(f.ctx, actions.RepoScope(repo.ID), ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(1))

		// A runner of an absent account cannot be created.
		err = f.ActionRunners.Create(f.ctx, &actions.Runner{UUID: actions.NewRunnerUUID(), Name: "x",
			Scope: actions.OwnerScope(999999), TokenHash: "h", Created: at(1)})
		isCategory(is, err, errs.ErrNotFound, "runner owner does not exist")
	},
	"DeclareAndSeen": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.actionRunner(actions.Scope{}, "box")
		is.NoErr(f.ActionRunners.Declare(f.ctx, r.ID, []string{"a", "b"}, "v2"))
		is.NoErr(f.ActionRunners.Seen(f.ctx, r.ID, at(5), false))
		got, err := f.ActionRunners.ByUUID(f.ctx, r.UUID)
		is.NoErr(err)
		is.Equal(got.Labels, []string{"a", "b"})
		is.Equal(got.Version, "v2")
		is.True(got.LastOnline.Equal(at(5)))
		is.True(got.LastActive.IsZero())
		is.NoErr(f.ActionRunners.Seen(f.ctx, r.ID, at(6), true))
		got, err = f.ActionRunners.ByUUID(f.ctx, r.UUID)
		is.NoErr(err)
		is.True(got.LastActive.Equal(at(6)))
		isCategory(is, f.ActionRunners.Declare(f.ctx, 999999, nil, ""), errs.ErrNotFound, "runner not found")
	},
	"ClaimKeepsToTheScope": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann, bob := f.user("ann"), f.user("bob")
		annRepo, bobRepo := f.repo(ann, "code"), f.repo(bob, "code")
		for _, id := range []int64{annRepo.ID, bobRepo.ID} {
			run, jobs := newActionRun(id, "ci.yml")
			is.NoErr(f.ActionRuns.CreateRun(f.ctx, run, jobs))
		}
		labels := []string{"linux", "big"}
		_, err := f.ActionRuns.ClaimJob(f.ctx, 1, actions.OwnerScope(f.user("cyd").ID), labels, at(2))
		isCategory(is, err, errs.ErrNotFound, "no waiting job fits the runner's labels")
		task, err := f.ActionRuns.ClaimJob(f.ctx, 1, actions.OwnerScope(bob.ID), labels, at(2))
		is.NoErr(err)
		is.Equal(task.Run.RepoID, bobRepo.ID)
		task, err = f.ActionRuns.ClaimJob(f.ctx, 1, actions.RepoScope(annRepo.ID), labels, at(2))
		is.NoErr(err)
		is.Equal(task.Run.RepoID, annRepo.ID)
	},
}

var actionTaskTests = map[string]func(t *testing.T, f *fixture){
	"StatusStepsOutputsAndLogs": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("ann"), "code")
		v0, err := f.ActionTasks.TasksVersion(f.ctx)
		is.NoErr(err)
		run, jobs := newActionRun(r.ID, "ci.yml")
		is.NoErr(f.ActionRuns.CreateRun(f.ctx, run, jobs))
		v1, err := f.ActionTasks.TasksVersion(f.ctx)
		is.NoErr(err)
		is.True(v1 > v0) // a job started waiting
		task, err := f.ActionRuns.ClaimJob(f.ctx, 9, actions.Scope{}, []string{"linux", "big"}, at(20))
		is.NoErr(err)

		got, err := f.ActionTasks.Get(f.ctx, task.ID)
		is.NoErr(err)
		is.Equal(got.RunnerID, int64(9))
		had, err := f.ActionTasks.RunnerHasTask(f.ctx, 9)
		is.NoErr(err)
		is.True(had)
		had, err = f.ActionTasks.RunnerHasTask(f.ctx, 10)
		is.NoErr(err)
		is.True(!had)
		is.Equal(got.Job.JobID, "build")
		is.Equal(got.Run.ID, run.ID)
		_, err = f.ActionTasks.Get(f.ctx, 999999)
		isCategory(is, err, errs.ErrNotFound, "task not found")
		job, err := f.ActionTasks.Job(f.ctx, r.ID, jobs[0].ID)
		is.NoErr(err)
		is.Equal(job.TaskID, task.ID)
		_, err = f.ActionTasks.Job(f.ctx, f.repo(f.user("bob"), "x").ID, jobs[0].ID)
		isCategory(is, err, errs.ErrNotFound, "job not found")

		is.NoErr(f.ActionTasks.SaveSteps(f.ctx, task.ID, []actions.TaskStep{{Index: 0, Status: actions.StatusRunning, Started: at(21)}}))
		is.NoErr(f.ActionTasks.SaveSteps(f.ctx, task.ID, []actions.TaskStep{{Index: 0, Status: actions.StatusSuccess, LogLength: 2, Started: at(21), Stopped: at(22)}}))

		sent, err := f.ActionTasks.AddOutputs(f.ctx, task.ID, map[string]string{"b": "1", "a": "2"})
		is.NoErr(err)
		is.Equal(sent, []string{"a", "b"})
		sent, err = f.ActionTasks.AddOutputs(f.ctx, task.ID, map[string]string{"a": "changed", "c": "3"})
		is.NoErr(err)
		is.Equal(sent, []string{"a", "b", "c"})
		outs, err := f.ActionTasks.Outputs(f.ctx, task.ID)
		is.NoErr(err)
		is.Equal(outs, map[string]string{"a": "2", "b": "1", "c": "3"}) // a key sent twice keeps its first value

		n, err := f.ActionTasks.LogLength(f.ctx, task.ID)
		is.NoErr(err)
		is.Equal(n, int64(0))
		is.NoErr(f.ActionTasks.AppendLogs(f.ctx, task.ID, 0, []actions.LogRow{{Time: at(21), Content: "one"}, {Time: at(22), Content: "two"}}))
		is.NoErr(f.ActionTasks.AppendLogs(f.ctx, task.ID, 2, []actions.LogRow{{Time: at(23), Content: "three"}}))
		isCategory(is, f.ActionTasks.AppendLogs(f.ctx, task.ID, 2, []actions.LogRow{{Time: at(23), Content: "again"}}), errs.ErrConflict, "task row already exists")
		rows, err := f.ActionTasks.Logs(f.ctx, task.ID, 0, 10)
		is.NoErr(err)
		is.Equal(len(rows), 3)
		is.Equal(rows[2].Content, "three")
		is.True(rows[0].Time.Equal(at(21)))
		rows, err = f.ActionTasks.Logs(f.ctx, task.ID, 1, 1) // one page
		is.NoErr(err)
		is.Equal(len(rows), 1)
		is.Equal(rows[0].Content, "two")
		running, err := f.ActionTasks.RunningOf(f.ctx, task.RunnerID)
		is.NoErr(err)
		is.Equal(len(running), 1)
		is.Equal(running[0].ID, task.ID)

		is.NoErr(f.ActionTasks.SetStatus(f.ctx, task.ID, actions.StatusSuccess, at(30)))
		running, err = f.ActionTasks.RunningOf(f.ctx, task.RunnerID)
		is.NoErr(err)
		is.Equal(len(running), 0)
		is.NoErr(f.ActionTasks.ArchiveLogs(f.ctx, task.ID))
		n, err = f.ActionTasks.LogLength(f.ctx, task.ID)
		is.NoErr(err)
		is.Equal(n, int64(0))
		archived, err := f.ActionTasks.Get(f.ctx, task.ID)
		is.NoErr(err)
		is.True(archived.LogArchived)
		is.NoErr(f.ActionTasks.SetJobStatus(f.ctx, jobs[1].ID, actions.StatusWaiting, at(30)))
		v2, err := f.ActionTasks.TasksVersion(f.ctx)
		is.NoErr(err)
		is.True(v2 > v1)
		is.NoErr(f.ActionTasks.SetRunStatus(f.ctx, run.ID, actions.StatusRunning, at(30)))
		list, err := f.ActionRuns.RunJobs(f.ctx, run.ID)
		is.NoErr(err)
		is.Equal(list[0].Status, actions.StatusSuccess)
		is.Equal(list[1].Status, actions.StatusWaiting)
		got, err = f.ActionTasks.Get(f.ctx, task.ID)
		is.NoErr(err)
		is.Equal(got.Status, actions.StatusSuccess)
	},
}
