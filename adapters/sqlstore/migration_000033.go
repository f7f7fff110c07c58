package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000033, frozen once released: the SHA-256 of each
// attachment's and release asset's bytes, computed as they stream to the
// blob store. Rows stored before keep an empty checksum.

func up000033(ctx context.Context, tx bun.Tx) error {
	for _, table := range []string{"attachments", "release_assets"} {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE `+table+` ADD COLUMN sha256 VARCHAR(64) NOT NULL DEFAULT ''`); err != nil {
			return err
		}
	}
	return nil
}

func down000033(ctx context.Context, tx bun.Tx) error {
	for _, table := range []string{"attachments", "release_assets"} {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE `+table+` DROP COLUMN sha256`); err != nil {
			return err
		}
	}
	return nil
}
