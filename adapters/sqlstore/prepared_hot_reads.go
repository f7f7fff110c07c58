package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// hotQueries are the lookups every authenticated request makes, kept as
// prepared statements on the read pool. bun inlines arguments into the SQL
// text, so each call would otherwise be parsed and planned anew: on SQLite
// that was about half the cost of a user lookup. database/sql prepares each
// statement once per pooled connection and reuses it after.
type hotQueries struct {
	userByID, userByName, tokensByLastEight *sql.Stmt
	// repoByFullName resolves "owner/name" in every repository route.
	repoByFullName *sql.Stmt
}

// hotCache holds the statements once they could be prepared. Preparing fails
// until the tables exist (before Migrate), so a failure is retried on the
// next call rather than remembered.
type hotCache struct {
	q  atomic.Pointer[hotQueries]
	mu sync.Mutex // serialises preparing and closing
}

func (d *DB) hotQueries(ctx context.Context) *hotQueries {
	if q := d.hot.q.Load(); q != nil {
		return q
	}
	d.hot.mu.Lock()
	defer d.hot.mu.Unlock()
	if q := d.hot.q.Load(); q != nil {
		return q
	}
	ph, ph2 := "?", "?"
	if d.dialect == DialectPostgres {
		ph, ph2 = "$1", "$2"
	}
	texts := []string{
		d.read.NewSelect().Model((*userRow)(nil)).Where("u.id = ?", bun.Safe(ph)).String(),
		d.read.NewSelect().Model((*userRow)(nil)).Where("u.lower_name = ?", bun.Safe(ph)).String(),
		d.read.NewSelect().Model((*tokenRow)(nil)).Where("t.last_eight = ?", bun.Safe(ph)).String(),
		repoByFullNameQuery(d.read, (*repoOwnerRow)(nil), bun.Safe(ph), bun.Safe(ph2)).String(),
	}
	stmts := make([]*sql.Stmt, 0, len(texts))
	for _, text := range texts {
		st, err := d.read.DB.PrepareContext(ctx, text)
		if err != nil {
			for _, s := range stmts {
				_ = s.Close()
			}
			return nil
		}
		stmts = append(stmts, st)
	}
	q := &hotQueries{userByID: stmts[0], userByName: stmts[1], tokensByLastEight: stmts[2], repoByFullName: stmts[3]}
	d.hot.q.Store(q)
	return q
}

func (d *DB) closeHotQueries() {
	d.hot.mu.Lock()
	defer d.hot.mu.Unlock()
	if q := d.hot.q.Swap(nil); q != nil {
		_ = q.userByID.Close()
		_ = q.userByName.Close()
		_ = q.tokensByLastEight.Close()
		_ = q.repoByFullName.Close()
	}
}

// prepared returns the hot statements when the call runs outside any
// transaction; inside one, the ordinary query path keeps it on the tx.
func (c conn) prepared(ctx context.Context) *hotQueries {
	if c.owner == nil {
		return nil
	}
	if _, inTx := c.owner.txFrom(ctx); inTx {
		return nil
	}
	return c.owner.hotQueries(ctx)
}

// scanOne runs a prepared single-row lookup into a bun model, answering
// sql.ErrNoRows when nothing matched, as bun's Scan would.
func (c conn) scanOne(ctx context.Context, st *sql.Stmt, arg any, dest any) error {
	return c.scanOneArgs(ctx, st, dest, arg)
}

// scanOneArgs is scanOne for statements with several parameters.
func (c conn) scanOneArgs(ctx context.Context, st *sql.Stmt, dest any, args ...any) error {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := c.owner.read.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// scanAll runs a prepared lookup into a slice of bun models.
func (c conn) scanAll(ctx context.Context, st *sql.Stmt, arg any, dest any) error {
	rows, err := st.QueryContext(ctx, arg)
	if err != nil {
		return err
	}
	return c.owner.read.ScanRows(ctx, rows, dest)
}
