package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000015, frozen once released: user_blocks, one row per
// account (user or organisation) blocking a user, and users.avatar, the
// stored avatar image's name of an account (organisations first).

type m000015UserBlock struct {
	bun.BaseModel `bun:"table:user_blocks"`

	ID        int64     `bun:"id,pk,autoincrement"`
	BlockerID int64     `bun:"blocker_id,notnull"`
	BlockeeID int64     `bun:"blockee_id,notnull"`
	Note      string    `bun:"note,notnull,default:''"`
	CreatedAt time.Time `bun:"created_at,notnull"`
}

const (
	cascadeToBlocker = `("blocker_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToBlockee = `("blockee_id") REFERENCES "users" ("id") ON DELETE CASCADE`
)

func up000015(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000015UserBlock)(nil)).IfNotExists().
		ForeignKey(cascadeToBlocker).ForeignKey(cascadeToBlockee).Exec(ctx); err != nil {
		return err
	}
	// A pair once; the unique index also serves a blocker's listing.
	if _, err := tx.NewCreateIndex().Table("user_blocks").Index("idx_user_blocks_pair").Unique().
		Column("blocker_id", "blockee_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	// "Is this user blocked by any of these?" and the blockee's cascade.
	if _, err := tx.NewCreateIndex().Table("user_blocks").Index("idx_user_blocks_blockee").
		Column("blockee_id", "blocker_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `ALTER TABLE users ADD COLUMN avatar VARCHAR(255) NOT NULL DEFAULT ''`)
	return err
}

func down000015(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, `ALTER TABLE users DROP COLUMN avatar`); err != nil {
		return err
	}
	_, err := tx.NewDropTable().Model((*m000015UserBlock)(nil)).IfExists().Exec(ctx)
	return err
}
