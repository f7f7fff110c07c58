package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000026, frozen once released: follows between accounts
// (Gitea's follow table) and the users' num_followers and num_following
// counters, kept by the follow store in the transaction that changes a
// pair. A follow of or by a deleted account goes with it.

// m000026Follow is one account following another.
type m000026Follow struct {
	bun.BaseModel `bun:"table:follows"`

	ID       int64     `bun:"id,pk,autoincrement"`
	UserID   int64     `bun:"user_id,notnull"`
	FollowID int64     `bun:"follow_id,notnull"`
	Created  time.Time `bun:"created,notnull"`
}

const followToUser = `("follow_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000026(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000026Follow)(nil)).IfNotExists().
		ForeignKey(cascadeToUsers).ForeignKey(followToUser).Exec(ctx); err != nil {
		return err
	}
	// A pair once; the following list walks a user's follows in order.
	if _, err := tx.NewCreateIndex().Table("follows").Index("follows_user_follow").Unique().
		Column("user_id", "follow_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	// The followers list and count walk the followed account's rows.
	if _, err := tx.NewCreateIndex().Table("follows").Index("idx_follows_follow_id").
		Column("follow_id", "id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	for _, col := range []string{"num_followers", "num_following"} {
		if _, err := tx.ExecContext(ctx, "ALTER TABLE users ADD COLUMN "+col+" INTEGER NOT NULL DEFAULT 0"); err != nil {
			return err
		}
	}
	return nil
}

func down000026(ctx context.Context, tx bun.Tx) error {
	for _, col := range []string{"num_followers", "num_following"} {
		if _, err := tx.ExecContext(ctx, "ALTER TABLE users DROP COLUMN "+col); err != nil {
			return err
		}
	}
	_, err := tx.NewDropTable().Table("follows").IfExists().Exec(ctx)
	return err
}
