package sqlstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.Transactor = (*DB)(nil)

// txKey is keyed by the DB so that a transaction of one database is never
// picked up by stores of another (tests open several).
type txKey struct{ db *DB }

// txState is what the ctx carries inside InTx. done stops a ctx that
// outlives its transaction (captured by a goroutine) from reaching a
// finished sql.Tx: such calls fall back to the pools.
type txState struct {
	tx   bun.Tx
	done atomic.Bool
}

func (d *DB) txFrom(ctx context.Context) (bun.Tx, bool) {
	if d == nil {
		return bun.Tx{}, false
	}
	st, ok := ctx.Value(txKey{d}).(*txState)
	if !ok || st.done.Load() {
		return bun.Tx{}, false
	}
	return st.tx, true
}

// InTx runs fn in one transaction on the writer and returns the commit's
// error. A nested InTx (fn's ctx passed back in) joins the outer transaction
// through a savepoint, so the inner fn's failure undoes only its own writes
// while the outer keeps its all-or-nothing commit.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	if outer, ok := d.txFrom(ctx); ok {
		return d.inSavepoint(ctx, outer, fn)
	}
	if d.dialect == DialectSQLite {
		// Before BEGIN: preparing needs the writer's one connection.
		d.prepareTxStatements(ctx)
	}
	st := &txState{}
	defer st.done.Store(true)
	var holder string
	if d.dialect == DialectSQLite {
		holder = txCaller()
	}
	started := time.Now()
	err := d.write.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if holder != "" {
			defer d.writer.hold(holder)()
		}
		st.tx = tx
		ctx = context.WithValue(ctx, txKey{d}, st)
		return fn(ctx, d.storesOn(conn{read: tx, write: tx, home: d}))
	})
	return d.waitCause(err, true, started)
}

func (d *DB) inSavepoint(ctx context.Context, outer bun.Tx, fn func(ctx context.Context, tx ports.Stores) error) error {
	// bun's Tx.RunInTx hands fn the outer transaction's ctx, dropping values
	// the caller added since; the savepoint is driven by hand to keep ctx.
	sp, err := outer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(ctx, d.storesOn(conn{read: sp, write: sp, home: d})); err != nil {
		_ = sp.Rollback()
		return err
	}
	return sp.Commit()
}
