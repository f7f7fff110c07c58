package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000027, frozen once released: accounts' OpenPGP keys.
//
// One row per key: a primary key (primary_key_id empty, the armored block
// it came in kept in armored) or one of its subkeys (primary_key_id naming
// it, armored empty). A key id is unique site-wide, so a signature's issuer
// finds its key with one index lookup. The identities' addresses are kept
// lower case, one a line; whether one counts as the owner's is decided when
// the key is read, against the owner's addresses then.

type m000027GPGKey struct {
	bun.BaseModel `bun:"table:gpg_keys"`

	ID                int64     `bun:"id,pk,autoincrement"`
	OwnerID           int64     `bun:"owner_id,notnull"`
	KeyID             string    `bun:"key_id,type:varchar(16),notnull,unique:gpg_keys_key_id"`
	PrimaryKeyID      string    `bun:"primary_key_id,type:varchar(16),notnull,default:''"`
	Content           string    `bun:"content,type:text,notnull"`
	Armored           string    `bun:"armored,type:text,notnull,default:''"`
	Emails            string    `bun:"emails,type:text,notnull,default:''"`
	Verified          bool      `bun:"verified,notnull,default:false"`
	CanSign           bool      `bun:"can_sign,notnull"`
	CanEncryptComms   bool      `bun:"can_encrypt_comms,notnull"`
	CanEncryptStorage bool      `bun:"can_encrypt_storage,notnull"`
	CanCertify        bool      `bun:"can_certify,notnull"`
	Created           time.Time `bun:"created,notnull"`
	Expires           time.Time `bun:"expires,nullzero"`
}

const gpgKeyToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000027(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000027GPGKey)(nil)).IfNotExists().
		ForeignKey(gpgKeyToOwner).Exec(ctx); err != nil {
		return err
	}
	// An owner's listing walks its primary keys by id, then fetches their
	// subkeys by primary_key_id within the owner; the cascade uses owner_id.
	_, err := tx.NewCreateIndex().Table("gpg_keys").Index("idx_gpg_keys_owner_primary").
		Column("owner_id", "primary_key_id", "id").IfNotExists().Exec(ctx)
	return err
}

func down000027(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000027GPGKey)(nil)).IfExists().Exec(ctx)
	return err
}
