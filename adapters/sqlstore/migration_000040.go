package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000040, frozen once released: the run record of each
// periodic (cron) task, so that its count and last and next runs survive a
// restart.
type m000040CronTask struct {
	bun.BaseModel `bun:"table:cron_tasks"`

	Name      string    `bun:"name,type:varchar(255),pk"`
	ExecTimes int64     `bun:"exec_times,notnull,default:0"`
	PrevRun   time.Time `bun:"prev_run,nullzero"`
	NextRun   time.Time `bun:"next_run,nullzero"`
}

func up000040(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateTable().Model((*m000040CronTask)(nil)).IfNotExists().Exec(ctx)
	return err
}

func down000040(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000040CronTask)(nil)).IfExists().Exec(ctx)
	return err
}
