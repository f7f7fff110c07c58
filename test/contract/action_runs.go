package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func newActionRun(repoID int64, workflow string) (*actions.Run, []*actions.RunJob) {
	run := &actions.Run{RepoID: repoID, WorkflowID: workflow, WorkflowName: "Build " + workflow, Title: "t", Ref: "refs/heads/main",
		CommitSHA: "0123456789012345678901234567890123456789", Event: "push", Status: actions.StatusWaiting,
		Created: at(10), Updated: at(10)}
	jobs := []*actions.RunJob{
		{JobID: "build", Name: "build", RunsOn: []string{"linux", "big"}, Status: actions.StatusWaiting, Created: at(10), Updated: at(10)},
		{JobID: "test", Name: "test", RunsOn: []string{"linux"}, Needs: []string{"build"}, Status: actions.StatusBlocked, Created: at(10), Updated: at(10)},
	}
	return run, jobs
}

var actionRunTests = map[string]func(t *testing.T, f *fixture){
	"DisabledWorkflows": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("ann"), "code")
		is.NoErr(f.ActionRuns.SetWorkflowDisabled(f.ctx, r.ID, "b.yml", true))
		is.NoErr(f.ActionRuns.SetWorkflowDisabled(f.ctx, r.ID, "a.yml", true))
		is.NoErr(f.ActionRuns.SetWorkflowDisabled(f.ctx, r.ID, "a.yml", true)) // twice
		ids, err := f.ActionRuns.DisabledWorkflows(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(ids, []string{"a.yml", "b.yml"})
		is.NoErr(f.ActionRuns.SetWorkflowDisabled(f.ctx, r.ID, "a.yml", false))
		is.NoErr(f.ActionRuns.SetWorkflowDisabled(f.ctx, r.ID, "c.yml", false)) // never disabled
		ids, err = f.ActionRuns.DisabledWorkflows(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(ids, []string{"b.yml"})
	},
	"CreateRunsNumberedPerRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r1, r2 := f.repo(ann, "one"), f.repo(ann, "two")
		for i, repoID := range []int64{r1.ID, r1.ID, r2.ID} {
			run, jobs := newActionRun(repoID, "ci.yml")
			is.NoErr(f.ActionRuns.CreateRun(f.ctx, run, jobs))
			is.True(run.ID != 0 && jobs[0].ID != 0 && jobs[1].ID != 0)
			is.Equal(run.Index, map[int]int64{0: 1, 1: 2, 2: 1}[i])
		}
		runs, total, err := f.ActionRuns.ListRuns(f.ctx, r1.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(runs[0].Index, int64(2))
		jobs, err := f.ActionRuns.RunJobs(f.ctx, runs[0].ID)
		is.NoErr(err)
		is.Equal(len(jobs), 2)
		is.Equal(jobs[0].RunsOn, []string{"linux", "big"})
		is.Equal(jobs[1].Needs, []string{"build"})
		is.Equal(jobs[1].Status, actions.StatusBlocked)
	},
	"CreateRunsInOneCallNumbersAndLinksEach": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r1, r2 := f.repo(ann, "one"), f.repo(ann, "two")
		first, firstJobs := newActionRun(r1.ID, "a.yml")
		is.NoErr(f.ActionRuns.CreateRun(f.ctx, first, firstJobs))
		var batch []ports.NewActionRun
		for i, repoID := range []int64{r1.ID, r2.ID, r1.ID, r1.ID} {
			run, jobs := newActionRun(repoID, []string{"b.yml", "c.yml", "d.yml", "e.yml"}[i])
			if i == 3 { // a failed run without jobs
				run.Status, jobs = actions.StatusFailure, nil
			}
			batch = append(batch, ports.NewActionRun{Run: run, Jobs: jobs})
		}
		is.NoErr(f.ActionRuns.CreateRuns(f.ctx, batch))
		is.NoErr(f.ActionRuns.CreateRuns(f.ctx, nil))
		for i, want := range []int64{2, 1, 3, 4} {
			is.Equal(batch[i].Run.Index, want) // numbered on per repository, in order
		}
		for _, nr := range batch {
			got, err := f.ActionRuns.Run(f.ctx, nr.Run.RepoID, nr.Run.ID)
			is.NoErr(err)
			is.Equal(got.WorkflowID, nr.Run.WorkflowID) // the id names this run's row
			is.Equal(got.WorkflowName, nr.Run.WorkflowName)
			is.Equal(got.Index, nr.Run.Index)
			jobs, err := f.ActionRuns.RunJobs(f.ctx, nr.Run.ID)
			is.NoErr(err)
			is.Equal(len(jobs), len(nr.Jobs))
			for k, j := range jobs {
				is.Equal(j.ID, nr.Jobs[k].ID)
				is.Equal(j.JobID, nr.Jobs[k].JobID)
				is.Equal(nr.Jobs[k].RunID, nr.Run.ID)
				is.Equal(nr.Jobs[k].RepoID, nr.Run.RepoID)
			}
		}
	},
	"ClaimJobByLabelsAndListTasks": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("ann"), "code")
		run, jobs := newActionRun(r.ID, "ci.yml")
		is.NoErr(f.ActionRuns.CreateRun(f.ctx, run, jobs))
		now := at(20)
		// Missing a label: nothing to take; blocked jobs are never taken.
		_, err := f.ActionRuns.ClaimJob(f.ctx, 3, actions.Scope{}, []string{"linux"}, now)
		isCategory(is, err, errs.ErrNotFound, "no waiting job fits the runner's labels")
		task, err := f.ActionRuns.ClaimJob(f.ctx, 3, actions.Scope{}, []string{"big", "linux", "gpu"}, now)
		is.NoErr(err)
		is.Equal(task.JobID, jobs[0].ID)
		is.Equal(task.RunnerID, int64(3))
		is.Equal(task.Status, actions.StatusRunning)
		is.Equal(task.Job.TaskID, task.ID)
		is.Equal(task.Run.Status, actions.StatusRunning)
		is.True(task.Run.Started.Equal(now))
		_, err = f.ActionRuns.ClaimJob(f.ctx, 4, actions.Scope{}, []string{"big", "linux"}, now) // taken already
		isCategory(is, err, errs.ErrNotFound, "no waiting job fits the runner's labels")

		list, total, err := f.ActionRuns.ListTasks(f.ctx, r.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(list[0].ID, task.ID)
		is.Equal(list[0].Job.Name, "build")
		is.Equal(list[0].Run.Index, int64(1))
		is.Equal(list[0].Run.WorkflowID, "ci.yml")
		is.True(list[0].Created.Equal(now))
		_, total, err = f.ActionRuns.ListTasks(f.ctx, f.repo(f.user("bob"), "other").ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(0))
	},
}
