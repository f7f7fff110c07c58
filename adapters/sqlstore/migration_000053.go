package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000053, frozen once released: a periodic task's last run
// keeps its message (what went wrong, e.g. the repositories whose
// `git fsck` failed), empty when it went well.
func up000053(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewAddColumn().Table("cron_tasks").ColumnExpr("message TEXT NOT NULL DEFAULT ''").Exec(ctx)
	return err
}

func down000053(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropColumn().Table("cron_tasks").Column("message").Exec(ctx)
	return err
}
