package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// statementSet is the prepared statements of one connection pool, keyed by
// their text, prepared on first use and closed at shutdown. bun inlines
// arguments into the SQL text, so each of its queries is parsed and planned
// anew; a hot statement prepared once is planned once per pooled connection
// (database/sql prepares it on each connection it runs on and reuses it).
// Generated texts are built once per shape (statements.text).
//
// Preparing fails until the tables exist (before Migrate), so a failure is
// not kept: the caller takes the ordinary query path and a later call tries
// again.
type statementSet struct {
	mu    sync.Mutex // serialises preparing and closing
	stmts sync.Map   // text → *preparedStmt
}

// get returns text prepared on pool, preparing it on first use with its
// labels and sink (prepared_runs.go); nil when it cannot be prepared. The
// caller must not hold a connection pool would need (see writerStmt).
func (s *statementSet) get(ctx context.Context, pool *sql.DB, text string, sink *atomic.Pointer[statementSink]) *preparedStmt {
	if st, ok := s.stmts.Load(text); ok {
		return st.(*preparedStmt)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.stmts.Load(text); ok {
		return st.(*preparedStmt)
	}
	st, err := pool.PrepareContext(ctx, text)
	if err != nil {
		return nil
	}
	p := newPreparedStmt(st, text, sink)
	s.stmts.Store(text, p)
	return p
}

// lookup returns text's statement when it is prepared already, else nil.
func (s *statementSet) lookup(text string) *preparedStmt {
	if st, ok := s.stmts.Load(text); ok {
		return st.(*preparedStmt)
	}
	return nil
}

func (s *statementSet) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stmts.Range(func(k, v any) bool {
		_ = v.(*preparedStmt).st.Close()
		s.stmts.Delete(k)
		return true
	})
}

// statements are a DB's prepared statements: one set on the read pool (on
// Postgres, the one pool) and one on SQLite's writer.
type statements struct {
	read, write statementSet
	// txReady says txStatementTexts are prepared on the writer; after a
	// failure, retryAt (UnixNano) is when preparing them may be tried again.
	txReady atomic.Bool
	retryAt atomic.Int64
	// runs counts the writer's statements run inside transactions, for tests
	// that count a use case's statements (bun's query hooks do not see them).
	runs atomic.Int64
	// reads counts the read pool's prepared statements handed out, for the
	// same tests (each is run once by its caller).
	reads atomic.Int64
	// texts memoises generated statement texts, keyed by their shape (a
	// small value, so that looking one up costs no allocation).
	texts sync.Map
	// sink is the statement metrics the prepared statements' runs are
	// reported to (prepared_runs.go); nil until DB.ObserveStatements.
	sink atomic.Pointer[statementSink]
}

// text returns the statement text of shape key, built once by build.
func (s *statements) text(key any, build func() string) string {
	if t, ok := s.texts.Load(key); ok {
		return t.(string)
	}
	t := build()
	s.texts.Store(key, t)
	return t
}

// txStatementTexts are the writer's statements that run inside
// transactions (an issue's creation and the hook lookup of its event), so
// they must be prepared before BEGIN (prepareTxStatements).
var txStatementTexts = []string{nextIndexSQL, insertIssueSQL, countIssueSQL, countPullSQL, activeHooksSQL, insertActivitySQL, insertJobSQL}

// prepareTxStatements prepares txStatementTexts on SQLite's writer; InTx
// calls it before it begins a transaction, while the writer's one connection
// is free. A failure is retried at most once a second, so that every
// transaction before Migrate does not pay for it; callers take the ordinary
// query path meanwhile.
func (d *DB) prepareTxStatements(ctx context.Context) {
	s := &d.stmts
	if d.dialect != DialectSQLite || s.txReady.Load() || time.Now().UnixNano() < s.retryAt.Load() {
		return
	}
	for _, text := range txStatementTexts {
		if s.write.get(ctx, d.write.DB, text, &s.sink) == nil {
			s.retryAt.Store(time.Now().Add(time.Second).UnixNano())
			return
		}
	}
	s.txReady.Store(true)
}

func (d *DB) closeStatements() {
	d.stmts.txReady.Store(false)
	d.stmts.read.close()
	d.stmts.write.close()
}

// readStmt returns text prepared on the read pool when the call runs outside
// any transaction; nil inside one (the ordinary query path keeps the call on
// the transaction) or when it cannot be prepared. text must use the
// placeholders of the dialect.
func (c conn) readStmt(ctx context.Context, text string) *preparedStmt {
	d := c.owner
	if d == nil {
		return nil
	}
	if _, inTx := d.txFrom(ctx); inTx {
		return nil
	}
	st := d.stmts.read.get(ctx, d.read.DB, text, &d.stmts.sink)
	if st != nil {
		d.stmts.reads.Add(1)
	}
	return st
}

// writerStmt is a statement prepared on SQLite's writer, bound to where the
// call runs; done releases the binding.
type writerStmt struct {
	preparedStmt
	db *DB
	// bound says the statement is bound to a transaction and closed by done.
	bound bool
}

func (s writerStmt) done() {
	if s.bound {
		_ = s.st.Close()
	}
}

// writerStmt returns text prepared on SQLite's writer and bound to on (a
// transaction of the writer, or the writer itself), or ok false on
// Postgres, on the read pool, or when it is not prepared: the caller then
// takes the ordinary query path on on.
//
// This is where the writer's rule lives: the writer pool has exactly one
// connection, and a transaction holds it, so preparing from inside one would
// wait for it forever. Outside a transaction the statement is prepared on
// first use; inside one only a statement prepared before BEGIN
// (prepareTxStatements) is used, bound with Tx.StmtContext, which finds it
// on the transaction's connection.
func (c conn) writerStmt(ctx context.Context, on bun.IDB, text string) (writerStmt, bool) {
	d := c.home
	if d == nil {
		d = c.owner
	}
	if d == nil || d.dialect != DialectSQLite {
		return writerStmt{}, false
	}
	// Only the writer's transactions reach a store of d (InTx and atomic
	// begin them on d.write), and the writer itself; the read pool is left
	// to its own statements.
	switch h := on.(type) {
	case bun.Tx:
		st := d.stmts.write.lookup(text)
		if st == nil {
			return writerStmt{}, false
		}
		d.stmts.runs.Add(1)
		bound := *st
		bound.st = h.Tx.StmtContext(ctx, st.st)
		return writerStmt{preparedStmt: bound, db: d, bound: true}, true
	case *bun.DB:
		if h != d.write {
			return writerStmt{}, false
		}
		if _, inTx := d.txFrom(ctx); inTx {
			// This goroutine's transaction holds the writer.
			return writerStmt{}, false
		}
		st := d.stmts.write.get(ctx, d.write.DB, text, &d.stmts.sink)
		if st == nil {
			return writerStmt{}, false
		}
		return writerStmt{preparedStmt: *st, db: d}, true
	default:
		return writerStmt{}, false
	}
}

// timeArg is t as bun writes it on SQLite (its dialect's text), so that a
// prepared statement stores what bun's own queries store and compare with.
func (s writerStmt) timeArg(t time.Time) string {
	return strings.Trim(string(s.db.write.Dialect().AppendTime(nil, t)), "'")
}

// timePtrArg is timeArg for a nullable column: nil stays NULL.
func (s writerStmt) timePtrArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.timeArg(*t)
}

// scanOne runs a prepared single-row read into a bun model, answering
// sql.ErrNoRows when nothing matched, as bun's Scan would.
func (c conn) scanOne(ctx context.Context, st *preparedStmt, dest any, args ...any) error {
	return st.query(ctx, func(rows *sql.Rows) error {
		if !rows.Next() { // which closes the rows
			if err := rows.Err(); err != nil {
				return err
			}
			return sql.ErrNoRows
		}
		err := c.owner.read.ScanRow(ctx, rows, dest)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		return err
	}, args...)
}

// scanAll runs a prepared read into a slice of bun models.
func (c conn) scanAll(ctx context.Context, st *preparedStmt, dest any, args ...any) error {
	return st.query(ctx, func(rows *sql.Rows) error {
		return c.owner.read.ScanRows(ctx, rows, dest)
	}, args...)
}
