package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// ActionRunStore persists workflow runs, their jobs and the tasks runners
// take, and which of a repository's workflows are disabled.
type ActionRunStore interface {
	// DisabledWorkflows returns the ids (file names) of the repository's
	// disabled workflows.
	DisabledWorkflows(ctx context.Context, repoID int64) ([]string, error)
	// SetWorkflowDisabled disables or enables one workflow of a
	// repository; doing it twice changes nothing.
	SetWorkflowDisabled(ctx context.Context, repoID int64, workflowID string, disabled bool) error
	// CreateRun inserts run with the repository's next run number (set in
	// run.Index) and its jobs, setting their ids. Call it inside a
	// transaction so that the run and its jobs land together.
	CreateRun(ctx context.Context, run *actions.Run, jobs []*actions.RunJob) error
	// CreateRuns is CreateRun for many runs in few statements (a push's
	// runs): they take their repositories' next numbers in order.
	CreateRuns(ctx context.Context, runs []NewActionRun) error
	// ListRuns returns one page of the repository's runs, newest first,
	// and the total.
	ListRuns(ctx context.Context, repoID int64, opts ListOptions) ([]*actions.Run, int64, error)
	// Run finds the repository's run id; another repository's is
	// errs.ErrNotFound.
	Run(ctx context.Context, repoID, id int64) (*actions.Run, error)
	// RunJobs returns a run's jobs in id order.
	RunJobs(ctx context.Context, runID int64) ([]*actions.RunJob, error)
	// ClaimJob hands the oldest waiting job whose runs-on labels are all
	// among labels, of a repository in scope (the zero scope: any), to the runner: it creates a running task for it, marks
	// the job running (and its run, when it waited) and returns the task
	// with its job and run. No such job is errs.ErrNotFound. Call it
	// inside a transaction; two runners claiming at once never get the
	// same job.
	ClaimJob(ctx context.Context, runnerID int64, scope actions.Scope, labels []string, now time.Time) (*actions.Task, error)
	// ListTasks returns one page of the repository's tasks, newest first,
	// with their jobs and runs, and the total.
	ListTasks(ctx context.Context, repoID int64, opts ListOptions) ([]*actions.Task, int64, error)
}

// NewActionRun is a run to create with its jobs.
type NewActionRun struct {
	Run  *actions.Run
	Jobs []*actions.RunJob
}
