package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000054, frozen once released: a run keeps its workflow's
// name: (the commit statuses of its jobs are "<name> / <job> (<event>)",
// as Gitea writes them); runs made before it have ” and use the file name.
func up000054(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewAddColumn().Table("action_runs").ColumnExpr("workflow_name TEXT NOT NULL DEFAULT ''").Exec(ctx)
	return err
}

func down000054(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropColumn().Table("action_runs").Column("workflow_name").Exec(ctx)
	return err
}
