package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.CronTaskStore = (*CronTaskStore)(nil)

var cronTaskMapping = mapping{op: "cron task", notFound: "cron task does not exist", conflict: "cron task already exists"}

type cronTaskRow struct {
	bun.BaseModel `bun:"table:cron_tasks,alias:ct"`

	Name      string    `bun:"name,pk"`
	ExecTimes int64     `bun:"exec_times"`
	PrevRun   time.Time `bun:"prev_run,nullzero"`
	NextRun   time.Time `bun:"next_run,nullzero"`
	Message   string    `bun:"message,notnull"`
}

// CronTaskStore is the SQL implementation of ports.CronTaskStore over the
// cron_tasks table (migration 000040).
type CronTaskStore struct{ c conn }

// All lists every record by name.
func (s *CronTaskStore) All(ctx context.Context) ([]*ports.CronTaskRun, error) {
	var rows []cronTaskRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).OrderExpr("ct.name ASC").Scan(ctx); err != nil {
		return nil, cronTaskMapping.mapErr(err)
	}
	out := make([]*ports.CronTaskRun, 0, len(rows))
	for _, r := range rows {
		out = append(out, &ports.CronTaskRun{Name: r.Name, ExecTimes: r.ExecTimes, Prev: r.PrevRun.UTC(), Next: r.NextRun.UTC(),
			Message: r.Message})
	}
	return out, nil
}

// RecordRun counts a run in one upsert.
func (s *CronTaskStore) RecordRun(ctx context.Context, name string, prev, next time.Time, message string) error {
	row := &cronTaskRow{Name: name, ExecTimes: 1, PrevRun: prev.UTC(), NextRun: next.UTC(), Message: message}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (name) DO UPDATE").
		Set("exec_times = ct.exec_times + 1").
		Set("prev_run = EXCLUDED.prev_run").
		Set("next_run = EXCLUDED.next_run").
		Set("message = EXCLUDED.message").Exec(ctx)
	return cronTaskMapping.mapErr(err)
}

// SetNext stores the next due time in one upsert.
func (s *CronTaskStore) SetNext(ctx context.Context, name string, next time.Time) error {
	row := &cronTaskRow{Name: name, NextRun: next.UTC()}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (name) DO UPDATE").
		Set("next_run = EXCLUDED.next_run").Exec(ctx)
	return cronTaskMapping.mapErr(err)
}
