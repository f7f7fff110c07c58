package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000018, frozen once released: an index on repos
// (owner_id, id, private) for an account's listing (GET /orgs/{org}/repos,
// /users/{username}/repos). The page walks it in id order and stops at its
// LIMIT instead of reading and sorting every repository of the owner, and
// the count reads it alone (it holds the privacy the visibility test needs),
// never the wide rows.
func up000018(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateIndex().Table("repos").Index("idx_repos_owner_id").
		Column("owner_id", "id", "private").IfNotExists().Exec(ctx)
	return err
}

func down000018(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropIndex().Index("idx_repos_owner_id").IfExists().Exec(ctx)
	return err
}
