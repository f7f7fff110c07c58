package sqlstore

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// queryCounter counts the statements bun sends, for tests that pin a use
// case's number of queries.
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

// CountQueries starts counting the statements sent on both pools and
// returns the counter.
func (d *DB) CountQueries() *atomic.Int64 {
	c := &queryCounter{}
	d.write.AddQueryHook(c)
	if d.read != d.write {
		d.read.AddQueryHook(c)
	}
	return &c.n
}
