package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000029, frozen once released: workflow variables.
//
// One table holds both scopes: an account's variable (a user's or an
// organisation's) has owner_id, a repository's repo_id; the other is NULL,
// so the foreign keys hold and a variable dies with its account or
// repository. A name is unique within its scope, which two partial unique
// indexes say (a unique index over a NULL column would not).
type m000029ActionVariable struct {
	bun.BaseModel `bun:"table:action_variables"`

	ID          int64     `bun:"id,pk,autoincrement"`
	OwnerID     int64     `bun:"owner_id,nullzero"`
	RepoID      int64     `bun:"repo_id,nullzero"`
	Name        string    `bun:"name,type:varchar(255),notnull"`
	Data        string    `bun:"data,type:text,notnull"`
	Description string    `bun:"description,type:text,notnull,default:''"`
	Created     time.Time `bun:"created,notnull"`
	Updated     time.Time `bun:"updated,notnull"`
}

const actionVariableToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000029(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000029ActionVariable)(nil)).IfNotExists().
		ForeignKey(actionVariableToOwner).ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
		return err
	}
	// Each scope's list walks its unique index in name order; the indexes
	// also serve the cascades.
	for _, ix := range []struct{ name, column string }{
		{"action_variables_owner_name", "owner_id"},
		{"action_variables_repo_name", "repo_id"},
	} {
		if _, err := tx.NewCreateIndex().Table("action_variables").Index(ix.name).Unique().
			Column(ix.column, "name").Where(ix.column + " IS NOT NULL").IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000029(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000029ActionVariable)(nil)).IfExists().Exec(ctx)
	return err
}
