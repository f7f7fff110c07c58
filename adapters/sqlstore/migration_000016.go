package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000016, frozen once released: an index on
// users.visibility. A repository search finds the few accounts that hide
// their repositories from the viewer (private ones, and limited ones from
// anonymous viewers) once per query, and tests each candidate's owner
// against that set instead of joining the owner's row (repoVisibleTo): the
// index keeps finding them a short range read however many accounts exist.
func up000016(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateIndex().Table("users").Index("idx_users_visibility").
		Column("visibility").IfNotExists().Exec(ctx)
	return err
}

func down000016(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropIndex().Index("idx_users_visibility").IfExists().Exec(ctx)
	return err
}
