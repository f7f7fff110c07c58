package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionRunMapping = mapping{
	op: "action run", notFound: "run not found", conflict: "run number already taken",
	missingRef: "repository does not exist",
}

var _ ports.ActionRunStore = (*ActionRunStore)(nil)

// ActionRunStore is the SQL implementation of ports.ActionRunStore over the
// action_runs, action_run_jobs, action_tasks and action_workflow_disabled
// tables (migration 000037).
type ActionRunStore struct{ c conn }

// claimWindow is how many waiting jobs one claim looks at, oldest first,
// for one whose labels the runner has.
const claimWindow = 200

type workflowDisabledRow struct {
	bun.BaseModel `bun:"table:action_workflow_disabled"`

	RepoID     int64  `bun:"repo_id,pk"`
	WorkflowID string `bun:"workflow_id,pk"`
}

type actionRunRow struct {
	bun.BaseModel `bun:"table:action_runs,alias:ar"`

	ID            int64      `bun:"id,pk,autoincrement"`
	RepoID        int64      `bun:"repo_id"`
	Idx           int64      `bun:"idx"`
	WorkflowID    string     `bun:"workflow_id"`
	WorkflowName  string     `bun:"workflow_name"`
	Title         string     `bun:"title"`
	TriggerUserID int64      `bun:"trigger_user_id"`
	Ref           string     `bun:"ref"`
	CommitSHA     string     `bun:"commit_sha"`
	Event         string     `bun:"event"`
	EventPayload  string     `bun:"event_payload"`
	Status        string     `bun:"status"`
	Started       *time.Time `bun:"started"`
	Created       time.Time  `bun:"created"`
	Updated       time.Time  `bun:"updated"`
}

type actionRunJobRow struct {
	bun.BaseModel `bun:"table:action_run_jobs,alias:aj"`

	ID      int64     `bun:"id,pk,autoincrement"`
	RunID   int64     `bun:"run_id"`
	RepoID  int64     `bun:"repo_id"`
	JobID   string    `bun:"job_id"`
	Name    string    `bun:"name"`
	RunsOn  string    `bun:"runs_on"`
	Needs   string    `bun:"needs"`
	Status  string    `bun:"status"`
	TaskID  int64     `bun:"task_id"`
	Created time.Time `bun:"created"`
	Updated time.Time `bun:"updated"`
}

type actionTaskRow struct {
	bun.BaseModel `bun:"table:action_tasks,alias:at"`

	ID       int64      `bun:"id,pk,autoincrement"`
	JobID    int64      `bun:"job_id"`
	RepoID   int64      `bun:"repo_id"`
	RunnerID int64      `bun:"runner_id"`
	Status   string     `bun:"status"`
	Started  *time.Time `bun:"started"`
	Created  time.Time  `bun:"created"`
	Updated  time.Time  `bun:"updated"`
	// LogArchived is set once the log moved to its file (migration 000051).
	LogArchived bool `bun:"log_archived"`
}

// Lists of labels and job ids are stored one per line.
func joinLines(l []string) string { return strings.Join(l, "\n") }
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return domainTime(*t)
}

func (r *actionRunRow) toDomain() *actions.Run {
	return &actions.Run{ID: r.ID, RepoID: r.RepoID, Index: r.Idx, WorkflowID: r.WorkflowID,
		WorkflowName: r.WorkflowName, Title: r.Title, TriggerUserID: r.TriggerUserID, Ref: r.Ref, CommitSHA: r.CommitSHA, Event: r.Event, EventPayload: r.EventPayload,
		Status: r.Status, Started: timeOrZero(r.Started), Created: domainTime(r.Created), Updated: domainTime(r.Updated)}
}

func (r *actionRunJobRow) toDomain() *actions.RunJob {
	return &actions.RunJob{ID: r.ID, RunID: r.RunID, RepoID: r.RepoID, JobID: r.JobID, Name: r.Name,
		RunsOn: splitLines(r.RunsOn), Needs: splitLines(r.Needs), Status: r.Status, TaskID: r.TaskID,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated)}
}

// DisabledWorkflows returns the ids of the repository's disabled workflows.
func (s *ActionRunStore) DisabledWorkflows(ctx context.Context, repoID int64) ([]string, error) {
	var ids []string
	err := s.c.r(ctx).NewSelect().Model((*workflowDisabledRow)(nil)).Column("workflow_id").
		Where("repo_id = ?", repoID).OrderExpr("workflow_id ASC").Scan(ctx, &ids)
	return ids, actionRunMapping.mapErr(err)
}

// SetWorkflowDisabled disables or enables one workflow of a repository.
func (s *ActionRunStore) SetWorkflowDisabled(ctx context.Context, repoID int64, workflowID string, disabled bool) error {
	row := &workflowDisabledRow{RepoID: repoID, WorkflowID: workflowID}
	var err error
	if disabled {
		_, err = s.c.w(ctx).NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	} else {
		_, err = s.c.w(ctx).NewDelete().Model(row).WherePK().Exec(ctx)
	}
	return actionRunMapping.mapErr(err)
}

// CreateRun inserts run with the repository's next number, and its jobs.
func (s *ActionRunStore) CreateRun(ctx context.Context, run *actions.Run, jobs []*actions.RunJob) error {
	return s.CreateRuns(ctx, []ports.NewActionRun{{Run: run, Jobs: jobs}})
}

// insertChunk bounds the rows of one multi-row INSERT, well within both
// databases' limits on bound parameters.
const insertChunk = 500

// CreateRuns inserts the runs, numbered on from each repository's last,
// and their jobs: one query for the numbers of each repository, one
// multi-row INSERT for the runs and one for the jobs.
func (s *ActionRunStore) CreateRuns(ctx context.Context, runs []ports.NewActionRun) error {
	if len(runs) == 0 {
		return nil
	}
	db := s.c.w(ctx)
	last := map[int64]int64{}
	rows := make([]actionRunRow, len(runs))
	for i, nr := range runs {
		run := nr.Run
		n, ok := last[run.RepoID]
		if !ok {
			if err := db.NewSelect().Model((*actionRunRow)(nil)).ColumnExpr("COALESCE(MAX(idx), 0)").
				Where("repo_id = ?", run.RepoID).Scan(ctx, &n); err != nil {
				return actionRunMapping.mapErr(err)
			}
		}
		last[run.RepoID] = n + 1
		var started *time.Time
		if !run.Started.IsZero() {
			t := dbTime(run.Started)
			started = &t
		}
		rows[i] = actionRunRow{RepoID: run.RepoID, Idx: n + 1, WorkflowID: run.WorkflowID,
			WorkflowName: run.WorkflowName, Title: run.Title,
			TriggerUserID: run.TriggerUserID, Ref: run.Ref, CommitSHA: run.CommitSHA, Event: run.Event,
			EventPayload: run.EventPayload, Status: run.Status, Started: started, Created: dbTime(run.Created),
			Updated: dbTime(run.Updated)}
	}
	runIDs, err := insertRows(ctx, db, rows)
	if err != nil {
		return actionRunMapping.mapErr(err)
	}
	var jobRows []actionRunJobRow
	var jobs []*actions.RunJob
	waiting := false
	for i, nr := range runs {
		nr.Run.ID, nr.Run.Index = runIDs[i], rows[i].Idx
		for _, j := range nr.Jobs {
			jobRows = append(jobRows, actionRunJobRow{RunID: nr.Run.ID, RepoID: nr.Run.RepoID, JobID: j.JobID, Name: j.Name,
				RunsOn: joinLines(j.RunsOn), Needs: joinLines(j.Needs), Status: j.Status,
				Created: dbTime(j.Created), Updated: dbTime(j.Updated)})
			jobs = append(jobs, j)
			if j.Status == actions.StatusWaiting {
				waiting = true
			}
		}
	}
	jobIDs, err := insertRows(ctx, db, jobRows)
	if err != nil {
		return actionRunMapping.mapErr(err)
	}
	for i, j := range jobs {
		j.ID, j.RunID, j.RepoID = jobIDs[i], jobRows[i].RunID, jobRows[i].RepoID
	}
	if waiting {
		return actionRunMapping.mapErr(bumpTasksVersion(ctx, db))
	}
	return nil
}

// ListRuns returns one page of the repository's runs, newest first.
func (s *ActionRunStore) ListRuns(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*actions.Run, int64, error) {
	var rows []actionRunRow
	q := s.c.r(ctx).NewSelect().Model(&rows).Where("repo_id = ?", repoID).OrderExpr("idx DESC")
	total, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, actionRunMapping.mapErr(err)
	}
	return domainAll(rows, (*actionRunRow).toDomain), total, nil
}

// Run finds the repository's run id.
func (s *ActionRunStore) Run(ctx context.Context, repoID, id int64) (*actions.Run, error) {
	row := new(actionRunRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("id = ?", id).Where("repo_id = ?", repoID).Scan(ctx); err != nil {
		return nil, actionRunMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// RunJobs returns a run's jobs in id order.
func (s *ActionRunStore) RunJobs(ctx context.Context, runID int64) ([]*actions.RunJob, error) {
	var rows []actionRunJobRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("run_id = ?", runID).OrderExpr("id ASC").Scan(ctx); err != nil {
		return nil, actionRunMapping.mapErr(err)
	}
	return domainAll(rows, (*actionRunJobRow).toDomain), nil
}

// ClaimJob hands the oldest waiting job the runner's labels fit to it.
func (s *ActionRunStore) ClaimJob(ctx context.Context, runnerID int64, scope actions.Scope, labels []string, now time.Time) (*actions.Task, error) {
	db := s.c.w(ctx)
	var waiting []actionRunJobRow
	q := db.NewSelect().Model(&waiting).Where("aj.status = ?", actions.StatusWaiting)
	switch {
	case scope.RepoID != 0:
		q = q.Where("aj.repo_id = ?", scope.RepoID)
	case scope.OwnerID != 0:
		q = q.Where("aj.repo_id IN (SELECT id FROM repos WHERE owner_id = ?)", scope.OwnerID)
	}
	if err := q.OrderExpr("aj.id ASC").Limit(claimWindow).Scan(ctx); err != nil {
		return nil, actionRunMapping.mapErr(err)
	}
	at := dbTime(now)
	for i := range waiting {
		j := &waiting[i]
		if !actions.LabelsMatch(labels, splitLines(j.RunsOn)) {
			continue
		}
		// Taken only while still waiting: a concurrent claim that got
		// there first leaves no row to update.
		res, err := db.NewUpdate().Model((*actionRunJobRow)(nil)).Set("status = ?", actions.StatusRunning).
			Set("updated = ?", at).Where("id = ?", j.ID).Where("status = ?", actions.StatusWaiting).Exec(ctx)
		if err != nil {
			return nil, actionRunMapping.mapErr(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue
		}
		tr := &actionTaskRow{JobID: j.ID, RepoID: j.RepoID, RunnerID: runnerID, Status: actions.StatusRunning,
			Started: &at, Created: at, Updated: at}
		if _, err := db.NewInsert().Model(tr).Returning("id").Exec(ctx); err != nil {
			return nil, actionRunMapping.mapErr(err)
		}
		if _, err := db.NewUpdate().Model((*actionRunJobRow)(nil)).Set("task_id = ?", tr.ID).
			Where("id = ?", j.ID).Exec(ctx); err != nil {
			return nil, actionRunMapping.mapErr(err)
		}
		if _, err := db.NewUpdate().Model((*actionRunRow)(nil)).Set("status = ?", actions.StatusRunning).
			Set("started = ?", at).Set("updated = ?", at).Where("id = ?", j.RunID).
			Where("status = ?", actions.StatusWaiting).Exec(ctx); err != nil {
			return nil, actionRunMapping.mapErr(err)
		}
		run := new(actionRunRow)
		if err := db.NewSelect().Model(run).Where("id = ?", j.RunID).Scan(ctx); err != nil {
			return nil, actionRunMapping.mapErr(err)
		}
		j.Status, j.TaskID, j.Updated = actions.StatusRunning, tr.ID, at
		return &actions.Task{ID: tr.ID, JobID: j.ID, RunnerID: runnerID, Status: tr.Status, Started: domainTime(at),
			Created: domainTime(at), Updated: domainTime(at), Job: *j.toDomain(), Run: *run.toDomain()}, nil
	}
	return nil, errs.NotFound("no waiting job fits the runner's labels")
}

// taskListRow is a task with its job's and run's columns, read in one join.
type taskListRow struct {
	actionTaskRow `bun:",extend"`

	JName     string     `bun:"j_name"`
	JJobID    string     `bun:"j_job_id"`
	RID       int64      `bun:"r_id"`
	RIdx      int64      `bun:"r_idx"`
	RWorkflow string     `bun:"r_workflow_id"`
	RName     string     `bun:"r_workflow_name"`
	RTitle    string     `bun:"r_title"`
	RRef      string     `bun:"r_ref"`
	RSHA      string     `bun:"r_commit_sha"`
	REvent    string     `bun:"r_event"`
	RStatus   string     `bun:"r_status"`
	RStarted  *time.Time `bun:"r_started"`
	RCreated  time.Time  `bun:"r_created"`
	RUpdated  time.Time  `bun:"r_updated"`
}

// ListTasks returns one page of the repository's tasks, newest first.
func (s *ActionRunStore) ListTasks(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*actions.Task, int64, error) {
	var rows []taskListRow
	q := s.c.r(ctx).NewSelect().Model(&rows).
		ColumnExpr("at.*").
		ColumnExpr("aj.name AS j_name, aj.job_id AS j_job_id").
		ColumnExpr("ar.id AS r_id, ar.idx AS r_idx, ar.workflow_id AS r_workflow_id, ar.title AS r_title").
		ColumnExpr("ar.workflow_name AS r_workflow_name").
		ColumnExpr("ar.ref AS r_ref, ar.commit_sha AS r_commit_sha, ar.event AS r_event, ar.status AS r_status").
		ColumnExpr("ar.started AS r_started, ar.created AS r_created, ar.updated AS r_updated").
		Join("JOIN action_run_jobs AS aj ON aj.id = at.job_id").
		Join("JOIN action_runs AS ar ON ar.id = aj.run_id").
		Where("at.repo_id = ?", repoID).OrderExpr("at.id DESC")
	total, err := page(q, opts).ScanAndCount(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, actionRunMapping.mapErr(err)
	}
	out := make([]*actions.Task, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		out = append(out, &actions.Task{ID: r.ID, JobID: r.JobID, RunnerID: r.RunnerID, Status: r.Status,
			Started: timeOrZero(r.actionTaskRow.Started), Created: domainTime(r.Created), Updated: domainTime(r.Updated),
			Job: actions.RunJob{ID: r.JobID, RunID: r.RID, RepoID: r.RepoID, JobID: r.JJobID, Name: r.JName, Status: r.Status, TaskID: r.ID},
			Run: actions.Run{ID: r.RID, RepoID: r.RepoID, Index: r.RIdx, WorkflowID: r.RWorkflow, WorkflowName: r.RName, Title: r.RTitle,
				Ref: r.RRef, CommitSHA: r.RSHA, Event: r.REvent, Status: r.RStatus, Started: timeOrZero(r.RStarted),
				Created: domainTime(r.RCreated), Updated: domainTime(r.RUpdated)}})
	}
	return out, total, nil
}
