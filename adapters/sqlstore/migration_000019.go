package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000019, frozen once released: original_author and
// original_author_id on issues and comments, Gitea's columns naming who
// wrote a migrated issue or comment on the source server when no account
// here stands for them (” and 0 for everything written here).
func up000019(ctx context.Context, tx bun.Tx) error {
	for _, table := range []string{"issues", "comments"} {
		for _, col := range []string{
			`original_author VARCHAR(255) NOT NULL DEFAULT ''`,
			`original_author_id BIGINT NOT NULL DEFAULT 0`,
		} {
			if _, err := tx.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+col); err != nil {
				return err
			}
		}
	}
	return nil
}

func down000019(ctx context.Context, tx bun.Tx) error {
	for _, table := range []string{"issues", "comments"} {
		for _, col := range []string{"original_author", "original_author_id"} {
			if _, err := tx.ExecContext(ctx, "ALTER TABLE "+table+" DROP COLUMN "+col); err != nil {
				return err
			}
		}
	}
	return nil
}
