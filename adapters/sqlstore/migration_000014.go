package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000014, frozen once released: users.num_stars, the number
// of repositories a user starred (Gitea's starred_repos_count), kept by the
// star store in the starring transaction and filled once here.

func up000014(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, `ALTER TABLE users ADD COLUMN num_stars INTEGER NOT NULL DEFAULT 0`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE users SET num_stars = (SELECT count(*) FROM stars WHERE stars.user_id = users.id)`)
	return err
}

func down000014(ctx context.Context, tx bun.Tx) error {
	_, err := tx.ExecContext(ctx, `ALTER TABLE users DROP COLUMN num_stars`)
	return err
}
