package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// PreparedWriteRuns counts the statements run through the writer's
// prepared statements inside transactions (statements.go), which bun's
// query hooks do not see.
func (d *DB) PreparedWriteRuns() int64 { return d.stmts.runs.Load() }

// PreparedReadRuns counts the statements run through the read pool's
// prepared statements (hot reads and the issue tracker's listing), which
// bun's query hooks do not see either.
func (d *DB) PreparedReadRuns() int64 { return d.stmts.reads.Load() }

// statementTracer passes the text of every statement bun sends to f.
type statementTracer struct{ f func(string) }

func (l statementTracer) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (l statementTracer) AfterQuery(_ context.Context, e *bun.QueryEvent) { l.f(e.Query) }

// TraceStatements passes the text of every statement sent through bun on
// both pools to f.
func (d *DB) TraceStatements(f func(string)) {
	d.write.AddQueryHook(statementTracer{f})
	if d.read != d.write {
		d.read.AddQueryHook(statementTracer{f})
	}
}
