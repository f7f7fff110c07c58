package sqlstore

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"

	"github.com/depothq/depot/ports"
)

// preparedStmt is a statement prepared on one pool (statements.go) with the
// kind and the table the metrics page files its runs under, read from its
// text once, when it is prepared. bun's query hook (statement_metrics.go)
// never sees a prepared statement, so its runs go through query, queryRows,
// queryRow and exec, which time them with the same names and labels when
// the statement metrics are on (DB.ObserveStatements), and cost a nil
// check when they are off.
type preparedStmt struct {
	st    *sql.Stmt
	op    ports.StatementOp
	table string
	// sink is the DB's statement metrics (statements.sink).
	sink *atomic.Pointer[statementSink]
}

// statementSink holds the statement metrics prepared statements report to.
type statementSink struct{ m ports.StatementMetrics }

func newPreparedStmt(st *sql.Stmt, text string, sink *atomic.Pointer[statementSink]) *preparedStmt {
	op, table := preparedLabels(text)
	return &preparedStmt{st: st, op: op, table: table, sink: sink}
}

// preparedLabels are the kind of the statement text and the table it names
// first (statementTable), StatementTableOther when it names none.
func preparedLabels(text string) (ports.StatementOp, string) {
	op := statementOpOf(text)
	table := statementTable(op, text)
	if table == "" {
		table = ports.StatementTableOther
	}
	return op, table
}

// statementRun is one run of a prepared statement: its start, and where it
// is reported; zero when the metrics are off, and then nothing is timed.
type statementRun struct {
	sink  *statementSink
	start time.Time
}

func (p *preparedStmt) begin() statementRun {
	s := p.sink.Load()
	if s == nil {
		return statementRun{}
	}
	return statementRun{sink: s, start: time.Now()}
}

// end reports the run that ended with err.
func (p *preparedStmt) end(r statementRun, err error) {
	if r.sink != nil {
		r.sink.m.StatementDone(p.op, p.table, time.Since(r.start), statementFailed(err))
	}
}

// query runs the statement with args and hands its rows to scan, which
// reads them and closes them (as bun's ScanRows and the scan…Rows
// functions do: closing them twice would cost an allocation). The run is
// timed until the rows are read, as bun's hook times a query it scans:
// SQLite steps through a statement as its rows are read.
func (p *preparedStmt) query(ctx context.Context, scan func(*sql.Rows) error, args ...any) error {
	run := p.begin()
	rows, err := p.st.QueryContext(ctx, args...)
	if err == nil {
		err = scan(rows)
	}
	p.end(run, err)
	return err
}

// queryRows is query for the scanners that read the rows into a slice
// (scanUserRows, scanIssueRows…).
func queryRows[T any](ctx context.Context, p *preparedStmt, scan func(*sql.Rows) ([]T, error), args ...any) ([]T, error) {
	var out []T
	err := p.query(ctx, func(rows *sql.Rows) (err error) {
		out, err = scan(rows)
		return err
	}, args...)
	return out, err
}

// preparedRow is the row of queryRow, whose run ends with its Scan.
type preparedRow struct {
	row *sql.Row
	p   *preparedStmt
	run statementRun
}

// queryRow runs the statement for one row, read by the answer's Scan.
func (p *preparedStmt) queryRow(ctx context.Context, args ...any) preparedRow {
	run := p.begin()
	return preparedRow{row: p.st.QueryRowContext(ctx, args...), p: p, run: run}
}

// Scan is sql.Row's Scan, and ends the run: sql.ErrNoRows is no failure.
func (r preparedRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	r.p.end(r.run, err)
	return err
}

// exec runs the statement for its effect.
func (p *preparedStmt) exec(ctx context.Context, args ...any) (sql.Result, error) {
	run := p.begin()
	res, err := p.st.ExecContext(ctx, args...)
	p.end(run, err)
	return res, err
}
