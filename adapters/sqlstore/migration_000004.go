package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000004, frozen: the repository search index.
//
// A repository search scans every repository whose name may contain the
// keyword, and for a signed-in user it also tests each one's privacy and
// owner. An index on (lower_name, private, owner_id) holds all three, so
// counting the matches reads the index alone, never the wide rows; it
// replaces the index on lower_name alone, whose work it also does.
func up000004(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateIndex().Table("repos").Index("idx_repos_search").
		Column("lower_name", "private", "owner_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDropIndex().Index("idx_repos_lower_name").IfExists().Exec(ctx)
	return err
}

func down000004(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateIndex().Table("repos").Index("idx_repos_lower_name").
		Column("lower_name").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDropIndex().Index("idx_repos_search").IfExists().Exec(ctx)
	return err
}
