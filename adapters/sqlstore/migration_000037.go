package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000037, frozen once released: workflow runs, their jobs,
// the tasks runners take, and the workflows a repository disabled.
//
// A run's number (idx) counts per repository. A job waits ("waiting") until
// a runner claims it, or is "blocked" while jobs it needs have not
// finished; a task is one runner's attempt at a job. runner_id names a
// runner of the runners' tables (a later migration) without a foreign key,
// so either can land first.
type m000037WorkflowDisabled struct {
	bun.BaseModel `bun:"table:action_workflow_disabled"`

	RepoID     int64  `bun:"repo_id,pk"`
	WorkflowID string `bun:"workflow_id,pk,type:varchar(255)"`
}

type m000037Run struct {
	bun.BaseModel `bun:"table:action_runs"`

	ID            int64      `bun:"id,pk,autoincrement"`
	RepoID        int64      `bun:"repo_id,notnull"`
	Idx           int64      `bun:"idx,notnull"`
	WorkflowID    string     `bun:"workflow_id,type:varchar(255),notnull"`
	Title         string     `bun:"title,type:text,notnull,default:''"`
	TriggerUserID int64      `bun:"trigger_user_id,notnull,default:0"`
	Ref           string     `bun:"ref,type:varchar(1024),notnull"`
	CommitSHA     string     `bun:"commit_sha,type:varchar(64),notnull"`
	Event         string     `bun:"event,type:varchar(64),notnull"`
	EventPayload  string     `bun:"event_payload,type:text,notnull,default:''"`
	Status        string     `bun:"status,type:varchar(32),notnull"`
	Started       *time.Time `bun:"started"`
	Created       time.Time  `bun:"created,notnull"`
	Updated       time.Time  `bun:"updated,notnull"`
}

type m000037RunJob struct {
	bun.BaseModel `bun:"table:action_run_jobs"`

	ID      int64     `bun:"id,pk,autoincrement"`
	RunID   int64     `bun:"run_id,notnull"`
	RepoID  int64     `bun:"repo_id,notnull"`
	JobID   string    `bun:"job_id,type:varchar(255),notnull"`
	Name    string    `bun:"name,type:text,notnull"`
	RunsOn  string    `bun:"runs_on,type:text,notnull,default:''"`
	Needs   string    `bun:"needs,type:text,notnull,default:''"`
	Status  string    `bun:"status,type:varchar(32),notnull"`
	TaskID  int64     `bun:"task_id,notnull,default:0"`
	Created time.Time `bun:"created,notnull"`
	Updated time.Time `bun:"updated,notnull"`
}

type m000037Task struct {
	bun.BaseModel `bun:"table:action_tasks"`

	ID       int64      `bun:"id,pk,autoincrement"`
	JobID    int64      `bun:"job_id,notnull"`
	RepoID   int64      `bun:"repo_id,notnull"`
	RunnerID int64      `bun:"runner_id,notnull"`
	Status   string     `bun:"status,type:varchar(32),notnull"`
	Started  *time.Time `bun:"started"`
	Created  time.Time  `bun:"created,notnull"`
	Updated  time.Time  `bun:"updated,notnull"`
}

const (
	actionJobToRun  = `("run_id") REFERENCES "action_runs" ("id") ON DELETE CASCADE`
	actionTaskToJob = `("job_id") REFERENCES "action_run_jobs" ("id") ON DELETE CASCADE`
)

func up000037(ctx context.Context, tx bun.Tx) error {
	for _, t := range []struct {
		model any
		fks   []string
	}{
		{(*m000037WorkflowDisabled)(nil), []string{cascadeToRepos}},
		{(*m000037Run)(nil), []string{cascadeToRepos}},
		{(*m000037RunJob)(nil), []string{actionJobToRun, cascadeToRepos}},
		{(*m000037Task)(nil), []string{actionTaskToJob, cascadeToRepos}},
	} {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		for _, fk := range t.fks {
			q = q.ForeignKey(fk)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	// Run numbers are unique per repository and list newest first through
	// it; jobs are claimed in id order among the waiting ones; a run's jobs
	// and a repository's tasks are read through their own indexes.
	for _, ix := range []struct {
		table, name string
		unique      bool
		columns     []string
	}{
		{"action_runs", "action_runs_repo_idx", true, []string{"repo_id", "idx"}},
		{"action_run_jobs", "action_run_jobs_status", false, []string{"status", "id"}},
		{"action_run_jobs", "action_run_jobs_run", false, []string{"run_id", "id"}},
		{"action_run_jobs", "action_run_jobs_repo", false, []string{"repo_id"}},
		{"action_tasks", "action_tasks_repo", false, []string{"repo_id", "id"}},
		{"action_tasks", "action_tasks_job", false, []string{"job_id"}},
	} {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000037(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000037Task)(nil), (*m000037RunJob)(nil), (*m000037Run)(nil), (*m000037WorkflowDisabled)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
