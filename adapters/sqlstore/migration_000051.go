package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000051, frozen once released: a finished task's log leaves
// action_task_logs for one compressed file; log_archived says the file
// holds it (and its rows are gone).
func up000051(ctx context.Context, tx bun.Tx) error {
	_, err := tx.ExecContext(ctx, `ALTER TABLE action_tasks ADD COLUMN log_archived BOOLEAN NOT NULL DEFAULT false`)
	return err
}

func down000051(ctx context.Context, tx bun.Tx) error {
	_, err := tx.ExecContext(ctx, `ALTER TABLE action_tasks DROP COLUMN log_archived`)
	return err
}
