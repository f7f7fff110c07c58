package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000028, frozen once released: workflow secrets. A secret
// is a user's or an organisation's (owner_id) or a repository's (repo_id),
// the other column NULL, and goes with it. Names are unique per owner: two
// unique indexes, each of which NULLs in the other column leave alone.
// data holds the value sealed by the application, never in clear.

// m000028ActionSecret is one secret.
type m000028ActionSecret struct {
	bun.BaseModel `bun:"table:action_secrets"`

	ID          int64     `bun:"id,pk,autoincrement"`
	OwnerID     *int64    `bun:"owner_id"`
	RepoID      *int64    `bun:"repo_id"`
	Name        string    `bun:"name,type:varchar(255),notnull"`
	Data        string    `bun:"data,type:text,notnull"`
	Description string    `bun:"description,type:text,notnull"`
	Created     time.Time `bun:"created,notnull"`
}

const (
	actionSecretToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	actionSecretToRepo  = `("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`
)

func up000028(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000028ActionSecret)(nil)).IfNotExists().
		ForeignKey(actionSecretToOwner).ForeignKey(actionSecretToRepo).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateIndex().Table("action_secrets").Index("action_secrets_owner_name").Unique().
		Column("owner_id", "name").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewCreateIndex().Table("action_secrets").Index("action_secrets_repo_name").Unique().
		Column("repo_id", "name").IfNotExists().Exec(ctx)
	return err
}

func down000028(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000028ActionSecret)(nil)).IfExists().Exec(ctx)
	return err
}
