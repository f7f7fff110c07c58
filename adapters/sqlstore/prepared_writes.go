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

// preparedWrites keeps the statements of SQLite's hot write paths (an
// issue's creation and the hook lookup of its event: writerTexts) prepared
// on the writer. bun inlines arguments into the SQL text, so SQLite parsed
// and planned each statement anew, and the issue's INSERT compiled its
// search index triggers every time: about a third of a creation's cost.
// The writer pool has exactly one connection, so a statement prepared on it
// is reused by every transaction (Tx.StmtContext finds it on the
// transaction's connection).
//
// Preparing needs the writer's connection, which a transaction holds, so
// the statements are prepared by InTx before it begins one (prepare), never
// from inside. Preparing fails until the tables exist (before Migrate), so
// a failure is retried, at most once a second, and callers take the
// ordinary query path meanwhile.
type preparedWrites struct {
	mu    sync.Mutex // serialises preparing and closing
	ready atomic.Bool
	// retryAt is when a failed preparation may be tried again (UnixNano).
	retryAt atomic.Int64
	stmts   sync.Map // text → *sql.Stmt
	// runs counts the statements run through this cache, for tests that
	// count a use case's statements (bun's query hooks do not see them).
	runs atomic.Int64
}

// writerTexts are the statements preparedWrites prepares.
var writerTexts = []string{nextIndexSQL, insertIssueSQL, countIssueSQL, countPullSQL, activeHooksSQL}

// prepare prepares writerTexts on db unless done; the caller must not hold
// db's connection.
func (p *preparedWrites) prepare(ctx context.Context, db *sql.DB) {
	if p.ready.Load() || time.Now().UnixNano() < p.retryAt.Load() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ready.Load() {
		return
	}
	for _, text := range writerTexts {
		if _, ok := p.stmts.Load(text); ok {
			continue
		}
		st, err := db.PrepareContext(ctx, text)
		if err != nil {
			p.retryAt.Store(time.Now().Add(time.Second).UnixNano())
			return
		}
		p.stmts.Store(text, st)
	}
	p.ready.Store(true)
}

// get returns text prepared, or nil when it is not (yet).
func (p *preparedWrites) get(text string) *sql.Stmt {
	if st, ok := p.stmts.Load(text); ok {
		return st.(*sql.Stmt)
	}
	return nil
}

func (p *preparedWrites) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ready.Store(false)
	p.stmts.Range(func(k, v any) bool {
		_ = v.(*sql.Stmt).Close()
		p.stmts.Delete(k)
		return true
	})
}

// writerStmt is a statement prepared on SQLite's writer, bound to where the
// call runs; done releases the binding.
type writerStmt struct {
	*sql.Stmt
	db   *DB
	done func()
}

// writerStmt returns text prepared on SQLite's writer and bound to on (a
// transaction of the writer, or the writer itself), or ok false on Postgres,
// on the read pool, or when it cannot be prepared: the caller then takes
// the ordinary query path on on.
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
	var tx *sql.Tx
	switch h := on.(type) {
	case bun.Tx:
		tx = h.Tx
	case *bun.DB:
		if h != d.write {
			return writerStmt{}, false
		}
	default:
		return writerStmt{}, false
	}
	st := d.writes.get(text)
	if st == nil {
		return writerStmt{}, false
	}
	d.writes.runs.Add(1)
	if tx == nil {
		return writerStmt{Stmt: st, db: d, done: func() {}}, true
	}
	bound := tx.StmtContext(ctx, st)
	return writerStmt{Stmt: bound, db: d, done: func() { _ = bound.Close() }}, true
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

// The statements of an issue's creation on SQLite, in the order it runs them.
const (
	insertIssueSQL = `INSERT INTO issues (repo_id, issue_index, poster_id, original_author, original_author_id,
	title, body, ref, is_pull, is_closed, is_locked, pin_order, milestone_id, deadline, num_comments,
	created_at, updated_at, closed_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	countIssueSQL = `UPDATE repos SET num_issues = num_issues + ?, num_closed_issues = num_closed_issues + ? WHERE id = ?`
	countPullSQL  = `UPDATE repos SET num_pulls = num_pulls + ?, num_closed_pulls = num_closed_pulls + ? WHERE id = ?`
)

// createPrepared is Create's body through the writer's prepared statements:
// ok false when they are not available on tx (see writerStmt).
func (st *IssueStore) createPrepared(ctx context.Context, tx bun.IDB, row *issueRow) (ok bool, err error) {
	next, ok := st.c.writerStmt(ctx, tx, nextIndexSQL)
	if !ok {
		return false, nil
	}
	defer next.done()
	ins, ok := st.c.writerStmt(ctx, tx, insertIssueSQL)
	if !ok {
		return false, nil
	}
	defer ins.done()
	counters := countIssueSQL
	if row.IsPull {
		counters = countPullSQL
	}
	cnt, ok := st.c.writerStmt(ctx, tx, counters)
	if !ok {
		return false, nil
	}
	defer cnt.done()

	if err := next.QueryRowContext(ctx, row.RepoID).Scan(&row.Index); err != nil {
		return true, issueMapping.mapErr(err)
	}
	err = ins.QueryRowContext(ctx, row.RepoID, row.Index, row.PosterID, row.OrigAuthor, row.OrigAuthID,
		row.Title, row.Body, row.Ref,
		row.IsPull, row.IsClosed, row.IsLocked, row.PinOrder, row.MilestoneID, ins.timePtrArg(row.Deadline),
		row.NumComments, ins.timeArg(row.CreatedAt), ins.timeArg(row.UpdatedAt), ins.timePtrArg(row.ClosedAt)).
		Scan(&row.ID)
	if err != nil {
		return true, issueMapping.mapErr(err)
	}
	_, err = cnt.ExecContext(ctx, 1, boolInt(row.IsClosed), row.RepoID)
	return true, issueMapping.mapErr(err)
}

// activeHooksSQL is ActiveFor's statement: a UNION of three index ranges,
// so neither side of an OR makes the planner scan the table.
const activeHooksSQL = `SELECT * FROM (
		SELECT * FROM webhooks WHERE repo_id = ? AND active
		UNION ALL
		SELECT * FROM webhooks WHERE owner_id = ? AND active
		UNION ALL
		SELECT * FROM webhooks WHERE repo_id IS NULL AND owner_id IS NULL AND is_system AND active
	) AS wh ORDER BY id`

// activeForPrepared runs ActiveFor's statement prepared on the writer when
// the call runs in one of its transactions (an event emitted by a change):
// ok false elsewhere.
func (s *HookStore) activeForPrepared(ctx context.Context, repoID, ownerID int64) (rows []hookRow, ok bool, err error) {
	on := s.c.r(ctx)
	if _, inTx := on.(bun.Tx); !inTx {
		return nil, false, nil
	}
	st, ok := s.c.writerStmt(ctx, on, activeHooksSQL)
	if !ok {
		return nil, false, nil
	}
	defer st.done()
	res, err := st.QueryContext(ctx, repoID, ownerID)
	if err != nil {
		return nil, true, err
	}
	if err := st.db.write.ScanRows(ctx, res, &rows); err != nil {
		return nil, true, err
	}
	return rows, true, nil
}
