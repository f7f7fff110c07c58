package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// ActionTaskStore persists what runners report of the tasks they run: the
// task's and its job's state, its steps, outputs and log rows, and the
// version of the queue of waiting jobs.
type ActionTaskStore interface {
	// Get finds a task with its job and run.
	Get(ctx context.Context, id int64) (*actions.Task, error)
	// Job finds the repository's job id; another repository's is
	// errs.ErrNotFound.
	Job(ctx context.Context, repoID, id int64) (*actions.RunJob, error)
	// SetStatus sets the task's and its job's status at now.
	SetStatus(ctx context.Context, taskID int64, status string, now time.Time) error
	// SetJobStatus sets a job's status at now; to waiting, it bumps the
	// tasks version.
	SetJobStatus(ctx context.Context, jobID int64, status string, now time.Time) error
	// SetRunStatus sets a run's status at now.
	SetRunStatus(ctx context.Context, runID int64, status string, now time.Time) error
	// SaveSteps writes the task's steps, replacing those of the same index.
	SaveSteps(ctx context.Context, taskID int64, steps []actions.TaskStep) error
	// AddOutputs stores the outputs the task has not sent before (a key
	// sent twice keeps its first value) and returns every key it has sent,
	// sorted.
	AddOutputs(ctx context.Context, taskID int64, outputs map[string]string) ([]string, error)
	// Outputs returns the outputs the task sent.
	Outputs(ctx context.Context, taskID int64) (map[string]string, error)
	// LogLength is how many log rows the task has.
	LogLength(ctx context.Context, taskID int64) (int64, error)
	// AppendLogs stores rows as the task's rows from index on.
	AppendLogs(ctx context.Context, taskID, index int64, rows []actions.LogRow) error
	// Logs returns at most limit of the task's log rows from index from
	// on, in order.
	Logs(ctx context.Context, taskID, from int64, limit int) ([]actions.LogRow, error)
	// ArchiveLogs deletes the task's log rows and marks its log archived:
	// call it once the log's file is safely written.
	ArchiveLogs(ctx context.Context, taskID int64) error
	// RunningOf returns the tasks the runner holds that still run, with
	// their jobs and runs, in id order.
	RunningOf(ctx context.Context, runnerID int64) ([]*actions.Task, error)
	// RunnerHasTask says whether the runner was ever handed a task.
	RunnerHasTask(ctx context.Context, runnerID int64) (bool, error)
	// SetToken stores the hash of the task's token (GITEA_TOKEN).
	SetToken(ctx context.Context, taskID int64, hash string) error
	// ByToken finds the task whose token has this hash, with its job and
	// run; none is errs.ErrNotFound.
	ByToken(ctx context.Context, hash string) (*actions.Task, error)
	// TasksVersion is the version of the queue of waiting jobs: it grows
	// whenever a job starts waiting.
	TasksVersion(ctx context.Context) (int64, error)
}
