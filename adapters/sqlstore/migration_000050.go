package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000050, frozen once released: browsers' sessions on
// Depot's own pages (sign-in, OAuth2 consent), found by the hash of the
// cookie's token and gone with their account.
type m000050WebSession struct {
	bun.BaseModel `bun:"table:web_sessions"`

	ID            int64     `bun:"id,pk,autoincrement"`
	TokenHash     string    `bun:"token_hash,type:varchar(64),notnull,unique"`
	UserID        int64     `bun:"user_id,nullzero"`
	PendingUserID int64     `bun:"pending_user_id,nullzero"`
	Created       time.Time `bun:"created,notnull"`
	Expires       time.Time `bun:"expires,notnull"`
}

func up000050(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateTable().Model((*m000050WebSession)(nil)).IfNotExists().
		ForeignKey(`("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).
		ForeignKey(`("pending_user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).Exec(ctx)
	if err != nil {
		return err
	}
	// The sweep of expired sessions and the cascades walk these.
	for _, ix := range []struct{ name, column string }{
		{"web_sessions_expires", "expires"},
		{"web_sessions_user", "user_id"},
		{"web_sessions_pending_user", "pending_user_id"},
	} {
		if _, err := tx.NewCreateIndex().Table("web_sessions").Index(ix.name).Column(ix.column).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000050(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000050WebSession)(nil)).IfExists().Exec(ctx)
	return err
}
