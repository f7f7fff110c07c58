package sqlstore

import (
	"context"
	"sort"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var actionTaskMapping = mapping{
	op: "action task", notFound: "task not found", conflict: "task row already exists",
	missingRef: "task does not exist",
}

var _ ports.ActionTaskStore = (*ActionTaskStore)(nil)

// ActionTaskStore is the SQL implementation of ports.ActionTaskStore over
// action_tasks (migration 000037) and the steps, outputs, log rows and
// tasks version of migration 000044.
type ActionTaskStore struct{ c conn }

type actionTaskStepRow struct {
	bun.BaseModel `bun:"table:action_task_steps"`

	TaskID    int64      `bun:"task_id,pk"`
	Idx       int64      `bun:"idx,pk"`
	Status    string     `bun:"status"`
	LogIndex  int64      `bun:"log_index"`
	LogLength int64      `bun:"log_length"`
	Started   *time.Time `bun:"started"`
	Stopped   *time.Time `bun:"stopped"`
}

type actionTaskOutputRow struct {
	bun.BaseModel `bun:"table:action_task_outputs"`

	TaskID int64  `bun:"task_id,pk"`
	Key    string `bun:"output_key,pk"`
	Value  string `bun:"output_value"`
}

type actionTaskLogRow struct {
	bun.BaseModel `bun:"table:action_task_logs"`

	TaskID  int64     `bun:"task_id,pk"`
	Idx     int64     `bun:"idx,pk"`
	Logged  time.Time `bun:"logged"`
	Content string    `bun:"content"`
}

type actionTasksVersionRow struct {
	bun.BaseModel `bun:"table:action_tasks_version"`

	ID      int64 `bun:"id,pk"`
	Version int64 `bun:"version"`
}

// bumpTasksVersion counts one more time jobs started waiting.
func bumpTasksVersion(ctx context.Context, db bun.IDB) error {
	_, err := db.NewUpdate().Model((*actionTasksVersionRow)(nil)).Set("version = version + 1").Where("id = 1").Exec(ctx)
	return err
}

// Get finds a task with its job and run.
func (s *ActionTaskStore) Get(ctx context.Context, id int64) (*actions.Task, error) {
	db := s.c.r(ctx)
	tr := new(actionTaskRow)
	if err := db.NewSelect().Model(tr).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	jr := new(actionRunJobRow)
	if err := db.NewSelect().Model(jr).Where("id = ?", tr.JobID).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	rr := new(actionRunRow)
	if err := db.NewSelect().Model(rr).Where("id = ?", jr.RunID).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	return &actions.Task{ID: tr.ID, JobID: tr.JobID, RunnerID: tr.RunnerID, Status: tr.Status,
		Started: timeOrZero(tr.Started), Created: domainTime(tr.Created), Updated: domainTime(tr.Updated),
		LogArchived: tr.LogArchived, Job: *jr.toDomain(), Run: *rr.toDomain()}, nil
}

// Job finds the repository's job id.
func (s *ActionTaskStore) Job(ctx context.Context, repoID, id int64) (*actions.RunJob, error) {
	row := new(actionRunJobRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("id = ?", id).Where("repo_id = ?", repoID).Scan(ctx); err != nil {
		return nil, actionJobMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

var actionJobMapping = mapping{op: "action job", notFound: "job not found"}

// SetStatus sets the task's and its job's status.
func (s *ActionTaskStore) SetStatus(ctx context.Context, taskID int64, status string, now time.Time) error {
	db, at := s.c.w(ctx), dbTime(now)
	tr := new(actionTaskRow)
	if err := db.NewSelect().Model(tr).Where("id = ?", taskID).Scan(ctx); err != nil {
		return actionTaskMapping.mapErr(err)
	}
	if _, err := db.NewUpdate().Model((*actionTaskRow)(nil)).Set("status = ?", status).Set("updated = ?", at).
		Where("id = ?", taskID).Exec(ctx); err != nil {
		return actionTaskMapping.mapErr(err)
	}
	_, err := db.NewUpdate().Model((*actionRunJobRow)(nil)).Set("status = ?", status).Set("updated = ?", at).
		Where("id = ?", tr.JobID).Where("task_id = ?", taskID).Exec(ctx)
	return actionTaskMapping.mapErr(err)
}

// SetJobStatus sets a job's status, bumping the tasks version when it
// starts waiting.
func (s *ActionTaskStore) SetJobStatus(ctx context.Context, jobID int64, status string, now time.Time) error {
	db := s.c.w(ctx)
	if _, err := db.NewUpdate().Model((*actionRunJobRow)(nil)).Set("status = ?", status).Set("updated = ?", dbTime(now)).
		Where("id = ?", jobID).Exec(ctx); err != nil {
		return actionTaskMapping.mapErr(err)
	}
	if status == actions.StatusWaiting {
		return actionTaskMapping.mapErr(bumpTasksVersion(ctx, db))
	}
	return nil
}

// SetRunStatus sets a run's status.
func (s *ActionTaskStore) SetRunStatus(ctx context.Context, runID int64, status string, now time.Time) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*actionRunRow)(nil)).Set("status = ?", status).Set("updated = ?", dbTime(now)).
		Where("id = ?", runID).Exec(ctx)
	return actionTaskMapping.mapErr(err)
}

// SaveSteps writes the task's steps, replacing those of the same index.
func (s *ActionTaskStore) SaveSteps(ctx context.Context, taskID int64, steps []actions.TaskStep) error {
	db := s.c.w(ctx)
	for _, st := range steps {
		row := &actionTaskStepRow{TaskID: taskID, Idx: st.Index, Status: st.Status, LogIndex: st.LogIndex,
			LogLength: st.LogLength, Started: optionalTime(st.Started), Stopped: optionalTime(st.Stopped)}
		if _, err := db.NewInsert().Model(row).On("CONFLICT (task_id, idx) DO UPDATE").
			Set("status = EXCLUDED.status").Set("log_index = EXCLUDED.log_index").
			Set("log_length = EXCLUDED.log_length").Set("started = EXCLUDED.started").
			Set("stopped = EXCLUDED.stopped").Exec(ctx); err != nil {
			return actionTaskMapping.mapErr(err)
		}
	}
	return nil
}

// optionalTime is a nullable column's value: NULL for the zero time.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	at := dbTime(t)
	return &at
}

// AddOutputs stores the outputs not sent before and returns every key sent.
func (s *ActionTaskStore) AddOutputs(ctx context.Context, taskID int64, outputs map[string]string) ([]string, error) {
	db := s.c.w(ctx)
	keys := make([]string, 0, len(outputs))
	for k := range outputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		row := &actionTaskOutputRow{TaskID: taskID, Key: k, Value: outputs[k]}
		if _, err := db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return nil, actionTaskMapping.mapErr(err)
		}
	}
	var sent []string
	err := db.NewSelect().Model((*actionTaskOutputRow)(nil)).Column("output_key").Where("task_id = ?", taskID).
		OrderExpr("output_key ASC").Scan(ctx, &sent)
	return sent, actionTaskMapping.mapErr(err)
}

// LogLength is how many log rows the task has. Rows are stored from index
// 0 without gaps, so it is the last index plus one: one probe of the
// primary key, where a count would read every row of a growing log.
func (s *ActionTaskStore) LogLength(ctx context.Context, taskID int64) (int64, error) {
	var n int64
	err := s.c.w(ctx).NewSelect().Model((*actionTaskLogRow)(nil)).ColumnExpr("COALESCE(MAX(idx) + 1, 0)").
		Where("task_id = ?", taskID).Scan(ctx, &n)
	return n, actionTaskMapping.mapErr(err)
}

// AppendLogs stores rows as the task's rows from index on.
func (s *ActionTaskStore) AppendLogs(ctx context.Context, taskID, index int64, rows []actions.LogRow) error {
	if len(rows) == 0 {
		return nil
	}
	out := make([]actionTaskLogRow, len(rows))
	for i, r := range rows {
		out[i] = actionTaskLogRow{TaskID: taskID, Idx: index + int64(i), Logged: dbTime(r.Time), Content: r.Content}
	}
	_, err := s.c.w(ctx).NewInsert().Model(&out).Exec(ctx)
	return actionTaskMapping.mapErr(err)
}

// Logs returns at most limit of the task's log rows from index from on, in order.
func (s *ActionTaskStore) Logs(ctx context.Context, taskID, from int64, limit int) ([]actions.LogRow, error) {
	var rows []actionTaskLogRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("task_id = ?", taskID).Where("idx >= ?", from).
		OrderExpr("idx ASC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	out := make([]actions.LogRow, len(rows))
	for i, r := range rows {
		out[i] = actions.LogRow{Time: domainTime(r.Logged), Content: r.Content}
	}
	return out, nil
}

// ArchiveLogs deletes the task's log rows and marks its log archived.
func (s *ActionTaskStore) ArchiveLogs(ctx context.Context, taskID int64) error {
	db := s.c.w(ctx)
	if _, err := db.NewDelete().Model((*actionTaskLogRow)(nil)).Where("task_id = ?", taskID).Exec(ctx); err != nil {
		return actionTaskMapping.mapErr(err)
	}
	_, err := db.NewUpdate().Model((*actionTaskRow)(nil)).Set("log_archived = ?", true).Where("id = ?", taskID).Exec(ctx)
	return actionTaskMapping.mapErr(err)
}

// TasksVersion is the version of the queue of waiting jobs.
func (s *ActionTaskStore) TasksVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.c.r(ctx).NewSelect().Model((*actionTasksVersionRow)(nil)).Column("version").Where("id = 1").Scan(ctx, &v)
	return v, actionTaskMapping.mapErr(err)
}

// RunningOf returns the runner's running tasks with their jobs and runs.
func (s *ActionTaskStore) RunningOf(ctx context.Context, runnerID int64) ([]*actions.Task, error) {
	var ids []int64
	if err := s.c.r(ctx).NewSelect().Model((*actionTaskRow)(nil)).Column("id").Where("runner_id = ?", runnerID).
		Where("status = ?", actions.StatusRunning).OrderExpr("id ASC").Scan(ctx, &ids); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	out := make([]*actions.Task, 0, len(ids))
	for _, id := range ids { // a runner runs a handful of tasks at most
		t, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// RunnerHasTask says whether the runner was ever handed a task.
func (s *ActionTaskStore) RunnerHasTask(ctx context.Context, runnerID int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*actionTaskRow)(nil)).Where("runner_id = ?", runnerID).Exists(ctx)
	return ok, actionTaskMapping.mapErr(err)
}

// Outputs returns the outputs the task sent.
func (s *ActionTaskStore) Outputs(ctx context.Context, taskID int64) (map[string]string, error) {
	var rows []actionTaskOutputRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("task_id = ?", taskID).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Key] = r.Value
	}
	return out, nil
}

type actionTaskTokenRow struct {
	bun.BaseModel `bun:"table:action_task_tokens"`

	TaskID    int64  `bun:"task_id,pk"`
	TokenHash string `bun:"token_hash"`
}

// SetToken stores the hash of the task's token, replacing one it had.
func (s *ActionTaskStore) SetToken(ctx context.Context, taskID int64, hash string) error {
	_, err := s.c.w(ctx).NewInsert().Model(&actionTaskTokenRow{TaskID: taskID, TokenHash: hash}).
		On("CONFLICT (task_id) DO UPDATE").Set("token_hash = EXCLUDED.token_hash").Exec(ctx)
	return actionTaskMapping.mapErr(err)
}

// ByToken finds the task whose token has this hash.
func (s *ActionTaskStore) ByToken(ctx context.Context, hash string) (*actions.Task, error) {
	row := new(actionTaskTokenRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("token_hash = ?", hash).Scan(ctx); err != nil {
		return nil, actionTaskMapping.mapErr(err)
	}
	return s.Get(ctx, row.TaskID)
}
