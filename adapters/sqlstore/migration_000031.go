package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000031, frozen once released: a release asset may be a
// link to a file elsewhere (external_url, empty for an uploaded file,
// whose bytes are in the blob store).

func up000031(ctx context.Context, tx bun.Tx) error {
	_, err := tx.ExecContext(ctx, `ALTER TABLE release_assets ADD COLUMN external_url TEXT NOT NULL DEFAULT ''`)
	return err
}

func down000031(ctx context.Context, tx bun.Tx) error {
	_, err := tx.ExecContext(ctx, `ALTER TABLE release_assets DROP COLUMN external_url`)
	return err
}
