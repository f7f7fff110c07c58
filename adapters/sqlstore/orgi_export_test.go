package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// queryLogger passes the text of every statement bun sends to f.
type queryLogger struct{ f func(string) }

func (l queryLogger) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (l queryLogger) AfterQuery(_ context.Context, e *bun.QueryEvent) { l.f(e.Query) }

// LogQueries passes the text of every statement sent on both pools to f,
// for tests that look at a use case's statements.
func (d *DB) LogQueries(f func(string)) {
	d.write.AddQueryHook(queryLogger{f})
	if d.read != d.write {
		d.read.AddQueryHook(queryLogger{f})
	}
}
