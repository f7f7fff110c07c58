package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000005, frozen: accounts' SSH public keys.
//
// A fingerprint names one key site-wide, so the SSH server can find the
// account a presented key belongs to with one index lookup; deploy keys get
// an index on their fingerprint for the same lookup and for the check that
// a new account key is not already a deploy key.

type m000005PublicKey struct {
	bun.BaseModel `bun:"table:public_keys"`

	ID          int64     `bun:"id,pk,autoincrement"`
	UserID      int64     `bun:"user_id,notnull,unique:public_keys_user_title"`
	Title       string    `bun:"title,notnull,unique:public_keys_user_title"`
	Content     string    `bun:"content,notnull"`
	Fingerprint string    `bun:"fingerprint,notnull,unique:public_keys_fingerprint"`
	Created     time.Time `bun:"created,nullzero"`
	LastUsed    time.Time `bun:"last_used,nullzero"`
}

func up000005(ctx context.Context, tx bun.Tx) error {
	// The (user_id, title) constraint leads with user_id, so it also serves
	// the owner's listings and the cascade from users.
	if _, err := tx.NewCreateTable().Model((*m000005PublicKey)(nil)).IfNotExists().
		ForeignKey(cascadeToUsers).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewCreateIndex().Table("deploy_keys").Index("idx_deploy_keys_fingerprint").
		Column("fingerprint").IfNotExists().Exec(ctx)
	return err
}

func down000005(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewDropIndex().Index("idx_deploy_keys_fingerprint").IfExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDropTable().Model((*m000005PublicKey)(nil)).IfExists().Exec(ctx)
	return err
}
