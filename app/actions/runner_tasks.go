package actions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Limits on a task's outputs, as Gitea's: longer keys and values are
// dropped (the runner may send them again, to no effect).
const (
	taskOutputKeyMax   = 255
	taskOutputValueMax = 1 << 20
)

// errForeignTask answers a runner reporting on a task another runner runs.
var errForeignTask = errs.Forbidden("invalid runner for task")

// RunnerTasks are the use cases of the runner protocol's work: handing a
// waiting job to a runner as a task, and recording what the runner
// reports of it (its state, steps, outputs and log).
type RunnerTasks struct{ *Service }

// RunnerTasks returns the runner protocol's task use cases.
func (s *Service) RunnerTasks() RunnerTasks { return RunnerTasks{s} }

// AssignedTask is a task handed to a runner with what it needs to run it.
type AssignedTask struct {
	Task *actions.Task
	Repo *repository.Repository
	// Actor is the name of who pushed or dispatched.
	Actor string
	// Workflow is the workflow file with only the task's job.
	Workflow []byte
	// Secrets are the owner's and the repository's secrets, the
	// repository's winning; Vars the same for variables.
	Secrets, Vars map[string]string
	// Needs are the jobs the task's job needs, by their key.
	Needs map[string]TaskNeed
	// Token is the task's GITEA_TOKEN, RuntimeToken its
	// ACTIONS_RUNTIME_TOKEN; both work while the task runs.
	Token, RuntimeToken string
}

// TaskNeed is what a job sees of a job it needs: its outputs and status.
type TaskNeed struct {
	Outputs map[string]string
	Status  string
}

// Fetch hands the runner the oldest waiting job it can run, unless the
// tasks version it saw last (version) is still the latest, and returns the
// latest version. No job is a nil task. An ephemeral runner gets one task
// in its life: it is removed once the task finishes.
func (s RunnerTasks) Fetch(ctx context.Context, r *actions.Runner, version int64) (*AssignedTask, int64, error) {
	latest, err := s.tasksVersion(ctx, s.clock.Now())
	if err != nil {
		return nil, 0, err
	}
	if version == latest {
		return nil, latest, nil
	}
	if r.Ephemeral {
		had, err := s.stores.ActionTasks.RunnerHasTask(ctx, r.ID)
		if err != nil || had {
			return nil, latest, err
		}
	}
	var task *actions.Task
	secret, err := s.secrets.TokenSecret()
	if err != nil {
		return nil, 0, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		now := s.clock.Now()
		// The runner may have been deleted through another server since
		// its credentials were kept.
		if _, err := tx.ActionRunners.Get(ctx, r.Scope, r.ID); err != nil {
			return errRunnerAuth
		}
		if task, err = tx.ActionRuns.ClaimJob(ctx, r.ID, r.Scope, r.Labels, now); err != nil {
			return err
		}
		if err := tx.ActionTasks.SetToken(ctx, task.ID, actions.TaskTokenHash(secret)); err != nil {
			return err
		}
		return s.postJobStatuses(ctx, tx, nil, &task.Run, []jobStatus{{Job: &task.Job}}, now)
	})
	if errors.Is(err, errs.ErrNotFound) {
		return nil, latest, nil
	}
	if err != nil {
		return nil, 0, err
	}
	out, err := s.assemble(ctx, task)
	if err != nil {
		// The job cannot run as it is: it fails rather than blocking the queue.
		if ferr := s.finish(ctx, task, actions.StatusFailure); ferr != nil {
			return nil, 0, errors.Join(err, ferr)
		}
		return nil, 0, err
	}
	out.Token = secret
	if out.RuntimeToken, err = s.signer.RuntimeToken(actions.RuntimeClaims{TaskID: task.ID, JobID: task.JobID,
		RunID: task.Run.ID}, s.clock.Now().Add(actions.RuntimeTokenLifetime)); err != nil {
		return nil, 0, err
	}
	return out, latest, nil
}

// assemble gathers what a claimed task needs: its repository, its
// workflow's job, the secrets and variables.
func (s RunnerTasks) assemble(ctx context.Context, task *actions.Task) (*AssignedTask, error) {
	repo, err := s.stores.Repos.GetByID(ctx, task.Run.RepoID)
	if err != nil {
		return nil, err
	}
	out := &AssignedTask{Task: task, Repo: repo}
	if u, err := s.stores.Users.GetByID(ctx, task.Run.TriggerUserID); err == nil {
		out.Actor = u.Name
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	files, err := s.Workflows().files(ctx, repo, task.Run.CommitSHA, false)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.ID != task.Run.WorkflowID {
			continue
		}
		blob, err := s.git.Blob(ctx, repoPath(repo), f.BlobID, maxWorkflowSize)
		if err != nil {
			return nil, err
		}
		if out.Workflow, err = actions.SingleJobWorkflow(blob.Content, task.Job.JobID); err != nil {
			return nil, err
		}
	}
	if out.Workflow == nil {
		return nil, errWorkflowNotFound
	}
	if out.Needs, err = s.taskNeeds(ctx, task); err != nil {
		return nil, err
	}
	if out.Secrets, err = s.taskSecrets(ctx, repo); err != nil {
		return nil, err
	}
	if out.Vars, err = s.taskVars(ctx, repo); err != nil {
		return nil, err
	}
	return out, nil
}

// taskNeeds are the outputs and statuses of the jobs the task's job needs.
func (s RunnerTasks) taskNeeds(ctx context.Context, task *actions.Task) (map[string]TaskNeed, error) {
	out := map[string]TaskNeed{}
	if len(task.Job.Needs) == 0 {
		return out, nil
	}
	jobs, err := s.stores.ActionRuns.RunJobs(ctx, task.Run.ID)
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		if !slices.Contains(task.Job.Needs, j.JobID) {
			continue
		}
		need := TaskNeed{Status: j.Status, Outputs: map[string]string{}}
		if j.TaskID != 0 {
			if need.Outputs, err = s.stores.ActionTasks.Outputs(ctx, j.TaskID); err != nil {
				return nil, err
			}
		}
		out[j.JobID] = need
	}
	return out, nil
}

// taskSecrets are the owner's secrets overlaid with the repository's.
func (s RunnerTasks) taskSecrets(ctx context.Context, repo *repository.Repository) (map[string]string, error) {
	out := map[string]string{}
	for _, owner := range []actions.SecretOwner{actions.AccountSecrets(repo.Owner.ID), actions.RepoSecrets(repo.ID)} {
		for p := 1; ; p++ {
			list, total, err := s.stores.ActionSecrets.List(ctx, owner, ports.ListOptions{Page: p, Limit: 50})
			if err != nil {
				return nil, err
			}
			for _, sec := range list {
				plain, err := s.box.Open(sec.Data, secretLabel(owner, sec.Name))
				if err != nil {
					continue // sealed under a key since rotated: set it again
				}
				out[sec.Name] = string(plain)
			}
			if len(list) == 0 || int64(p*50) >= total {
				break
			}
		}
	}
	return out, nil
}

// taskVars are the owner's variables overlaid with the repository's.
func (s RunnerTasks) taskVars(ctx context.Context, repo *repository.Repository) (map[string]string, error) {
	out := map[string]string{}
	for _, scope := range []actions.Scope{actions.OwnerScope(repo.Owner.ID), actions.RepoScope(repo.ID)} {
		for p := 1; ; p++ {
			list, total, err := s.stores.ActionVariables.List(ctx, scope, ports.ListOptions{Page: p, Limit: 50})
			if err != nil {
				return nil, err
			}
			for _, v := range list {
				out[v.Name] = v.Data
			}
			if len(list) == 0 || int64(p*50) >= total {
				break
			}
		}
	}
	return out, nil
}

// TaskReport is what a runner reports of a task.
type TaskReport struct {
	TaskID int64
	// Result is the task's final status, "" while it runs.
	Result  string
	Steps   []actions.TaskStep
	Outputs map[string]string
}

// ownTask finds the task the runner reports on: an unknown one is
// errs.ErrNotFound, another runner's errs.ErrForbidden.
func (s RunnerTasks) ownTask(ctx context.Context, r *actions.Runner, id int64) (*actions.Task, error) {
	task, err := s.stores.ActionTasks.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if task.RunnerID != r.ID {
		return nil, errForeignTask
	}
	return task, nil
}

// Update records a runner's report on its task: the steps, the outputs
// not sent before and, once the task finished, its result, which
// releases the jobs that needed it, settles the run's status and removes
// an ephemeral runner. A finished task keeps its result. It returns the task's status and every
// output key sent.
func (s RunnerTasks) Update(ctx context.Context, r *actions.Runner, rep TaskReport) (string, []string, error) {
	task, err := s.ownTask(ctx, r, rep.TaskID)
	if err != nil {
		return "", nil, err
	}
	outputs := map[string]string{}
	for k, v := range rep.Outputs {
		if k != "" && len(k) <= taskOutputKeyMax && len(v) <= taskOutputValueMax {
			outputs[k] = v
		}
	}
	status := task.Status
	var sent []string
	err = s.inTxTasksChanged(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.ActionTasks.SaveSteps(ctx, task.ID, rep.Steps); err != nil {
			return err
		}
		if sent, err = tx.ActionTasks.AddOutputs(ctx, task.ID, outputs); err != nil {
			return err
		}
		if rep.Result == "" || actions.IsDone(task.Status) {
			return nil
		}
		status = rep.Result
		if err := s.settle(ctx, tx, task, rep.Result); err != nil {
			return err
		}
		if r.Ephemeral { // its one task done, it goes
			s.runners.forget(r.ID)
			return errs.IgnoreNotFound(tx.ActionRunners.Delete(ctx, r.Scope, r.ID))
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return status, sent, nil
}

// finish ends a task with status in its own transaction.
func (s RunnerTasks) finish(ctx context.Context, task *actions.Task, status string) error {
	return s.inTxTasksChanged(ctx, func(ctx context.Context, tx ports.Stores) error {
		return s.settle(ctx, tx, task, status)
	})
}

// settle ends the task with status, releases the run's jobs that waited
// for it and sets the run's status from its jobs'.
func (s RunnerTasks) settle(ctx context.Context, tx ports.Stores, task *actions.Task, status string) error {
	now := s.clock.Now()
	if err := tx.ActionTasks.SetStatus(ctx, task.ID, status, now); err != nil {
		return err
	}
	jobs, err := tx.ActionRuns.RunJobs(ctx, task.Run.ID)
	if err != nil {
		return err
	}
	// Skipping a job may release the jobs that need it: repeat until none moves.
	released := map[int64]bool{}
	for {
		moved := actions.ReleaseBlocked(jobs)
		if len(moved) == 0 {
			break
		}
		for _, m := range moved {
			if err := tx.ActionTasks.SetJobStatus(ctx, m.JobID, m.Status, now); err != nil {
				return err
			}
			released[m.JobID] = true
			for _, j := range jobs {
				if j.ID == m.JobID {
					j.Status = m.Status
				}
			}
		}
	}
	statuses := make([]string, len(jobs))
	for i, j := range jobs {
		statuses[i] = j.Status
	}
	if err := tx.ActionTasks.SetRunStatus(ctx, task.Run.ID, actions.RunStatus(statuses), now); err != nil {
		return err
	}
	if err := enqueueLogArchive(ctx, tx, task.ID); err != nil {
		return err
	}
	// The finished job and those it released or skipped report on the commit.
	var changed []jobStatus
	for _, j := range jobs {
		switch {
		case j.ID == task.JobID:
			took := time.Duration(0)
			if !task.Started.IsZero() {
				took = now.Sub(task.Started)
			}
			changed = append(changed, jobStatus{Job: j, Took: took})
		case released[j.ID]:
			changed = append(changed, jobStatus{Job: j})
		}
	}
	return s.postJobStatuses(ctx, tx, nil, &task.Run, changed, now)
}

// AppendLog stores the log rows a runner sends for its task from index on
// and returns how many rows the task has now: rows already stored are not
// stored again, and rows past a gap are refused by acknowledging only what
// is stored (the runner sends them again).
func (s RunnerTasks) AppendLog(ctx context.Context, r *actions.Runner, taskID, index int64, rows []actions.LogRow) (int64, error) {
	task, err := s.ownTask(ctx, r, taskID)
	if err != nil {
		return 0, err
	}
	if task.LogArchived {
		return 0, errLogArchived
	}
	var ack int64
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		n, err := tx.ActionTasks.LogLength(ctx, taskID)
		if err != nil {
			return err
		}
		ack = n
		if len(rows) == 0 || index > n || index+int64(len(rows)) <= n {
			return nil
		}
		fresh := rows[n-index:]
		if err := tx.ActionTasks.AppendLogs(ctx, taskID, n, fresh); err != nil {
			return err
		}
		ack = n + int64(len(fresh))
		return nil
	})
	return ack, err
}
