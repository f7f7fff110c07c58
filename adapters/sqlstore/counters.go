package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// recountUser runs a recount of one user's counter.
func recountUser(ctx context.Context, tx bun.IDB, query string, userID int64) error {
	_, err := tx.ExecContext(ctx, query, userID)
	return starMapping.mapErr(err)
}

// recount runs a recount of one repository's counter.
func recount(ctx context.Context, tx bun.IDB, query string, repoID int64) error {
	_, err := tx.ExecContext(ctx, query, repoID)
	return repoMapping.mapErr(err)
}

// lockRows locks the rows a recount is about to derive from, in id order.
// On Postgres, under read committed, two transactions that each insert a
// child row and then recount by subquery would otherwise both count from a
// snapshot missing the other's row, and the last write would lose one.
// Taking the parent's lock first makes the later recount see the earlier
// commit. SQLite has a single writer, so there is nothing to lock.
func lockRows(ctx context.Context, tx bun.IDB, table string, ids []int64) error {
	if len(ids) == 0 || tx.Dialect().Name() != dialect.PG {
		return nil
	}
	_, err := tx.ExecContext(ctx, "SELECT id FROM ? WHERE id IN (?) ORDER BY id FOR UPDATE", bun.Ident(table), bun.List(ids))
	return err
}
