package sqlstore

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestStatementsPreparedOnceTablesExist opens SQLite without migrating: no
// statement can be prepared yet, and the failure is not kept, so the same
// handle prepares them once Migrate has made the tables, and then reuses
// them.
func TestStatementsPreparedOnceTablesExist(t *testing.T) {
	is := is.New(t)
	ctx := t.Context()
	d, err := Open(ctx, Config{DataDir: t.TempDir()})
	is.NoErr(err)
	t.Cleanup(func() { _ = d.Close() })
	c := conn{owner: d, read: d.read, write: d.write}

	is.True(c.hotStmt(ctx, hotUserByName) == nil)
	d.prepareTxStatements(ctx)
	is.True(!d.stmts.txReady.Load())
	_, ok := c.claimStmt(ctx, 1)
	is.True(!ok)

	is.NoErr(d.Migrate(ctx))
	d.stmts.retryAt.Store(0) // the once-a-second retry of a failure is not what this test waits for
	d.prepareTxStatements(ctx)
	is.True(d.stmts.txReady.Load())
	for _, text := range txStatementTexts {
		is.True(d.stmts.write.lookup(text) != nil)
	}

	u := &user.User{Name: "Ada", LowerName: "ada", Email: "ada@example.com"}
	is.NoErr(d.Stores().Users.Create(ctx, u))
	st := c.hotStmt(ctx, hotUserByName)
	is.True(st != nil)
	is.Equal(c.hotStmt(ctx, hotUserByName), st) // prepared once, then reused
	got, err := d.Stores().Users.GetByName(ctx, "ADA")
	is.NoErr(err)
	is.Equal(got.ID, u.ID)

	claim, ok := c.claimStmt(ctx, 2)
	is.True(ok)
	is.True(!claim.bound)
	claimText := d.stmts.text(claimKinds(2), nil) // built by claimStmt
	is.True(d.stmts.write.lookup(claimText) != nil)

	is.NoErr(d.Close())
	is.True(d.stmts.read.lookup(d.stmts.text(hotUserByName, nil)) == nil)
	is.True(d.stmts.write.lookup(claimText) == nil)
	is.True(!d.stmts.txReady.Load())
}

// TestWriterStatementsInsideTransaction holds the writer's rule: inside a
// transaction, which holds SQLite's one writer connection, a statement
// prepared before BEGIN is bound to the transaction and counted, and one
// that was not is never prepared there (that would wait for the connection
// forever) but left to the ordinary query path.
func TestWriterStatementsInsideTransaction(t *testing.T) {
	is := is.New(t)
	ctx := t.Context()
	d, err := Open(ctx, Config{DataDir: t.TempDir()})
	is.NoErr(err)
	t.Cleanup(func() { _ = d.Close() })
	is.NoErr(d.Migrate(ctx))

	runs := d.stmts.runs.Load()
	err = d.InTx(ctx, func(ctx context.Context, _ ports.Stores) error {
		tx, inTx := d.txFrom(ctx)
		is.True(inTx)
		c := conn{read: tx, write: tx, home: d}
		next, ok := c.writerStmt(ctx, tx, nextIndexSQL)
		is.True(ok)
		is.True(next.bound)
		next.done()

		_, ok = c.writerStmt(ctx, tx, repoCountersSQL)
		is.True(!ok)
		is.True(d.stmts.write.lookup(repoCountersSQL) == nil)

		// A store outside the transaction, called with its ctx, does not
		// prepare on the writer either.
		_, ok = conn{owner: d, read: d.read, write: d.write}.claimStmt(ctx, 3)
		is.True(!ok)
		is.True(d.stmts.write.lookup(d.stmts.text(claimKinds(3), nil)) == nil)
		return nil
	})
	is.NoErr(err)
	is.Equal(d.stmts.runs.Load()-runs, int64(1))
}
