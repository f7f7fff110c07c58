package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000017, frozen once released: comments.old_ref and
// comments.new_ref, the refs of a change_issue_ref timeline event (Gitea's
// comment columns of the same names).

func up000017(ctx context.Context, tx bun.Tx) error {
	for _, col := range []string{"old_ref", "new_ref"} {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE comments ADD COLUMN `+col+` TEXT NOT NULL DEFAULT ''`); err != nil {
			return err
		}
	}
	return nil
}

func down000017(ctx context.Context, tx bun.Tx) error {
	for _, col := range []string{"new_ref", "old_ref"} {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE comments DROP COLUMN `+col); err != nil {
			return err
		}
	}
	return nil
}
