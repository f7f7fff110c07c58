package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// groupCommit batches small, independent writes on SQLite's one writer
// connection into shared transactions. With synchronous=FULL every commit
// waits for the disk (milliseconds on common hardware), so background
// workers that each record one outcome at a time (a job settled, a
// delivery attempt recorded) would be bound by one fsync per write; in one
// transaction a batch pays one. Each write still returns only once it is
// committed, so callers see the same durability as with their own
// transaction.
//
// A batch forms while the previous one commits, without waiting for more:
// a lone write runs at once. Each write of a batch runs in its own
// savepoint, so one that fails is undone alone and the others commit. A
// failed commit fails every write of its batch, as it would have failed
// each alone.
type groupCommit struct {
	mu      sync.Mutex
	queue   []*groupWrite
	running bool
	// writer is told what holds the writer (pool_waits.go); nil: nothing.
	writer *writerHolder
}

// groupWrite is one write waiting for its batch.
type groupWrite struct {
	ctx  context.Context
	fn   func(ctx context.Context, db bun.IDB) error
	done chan error
}

// maxGroup bounds a batch, so that one transaction never grows unbounded
// under a flood of writes.
const maxGroup = 256

// do runs fn in the next batch on db and returns its outcome once the
// batch has committed. fn runs with ctx's values but without its
// cancellation: on SQLite an interrupted statement may roll back the whole
// shared transaction. ctx does bound the wait for a batch to take the
// write: one that ends first leaves the queue unrun, with ctx's error.
func (g *groupCommit) do(ctx context.Context, db *bun.DB, fn func(ctx context.Context, db bun.IDB) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := &groupWrite{ctx: context.WithoutCancel(ctx), fn: fn, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, w)
	if !g.running {
		g.running = true
		go g.loop(db)
	}
	g.mu.Unlock()
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
	}
	// A write still queued is taken out and never runs, so the caller's
	// deadline bounds its wait for the writer; one already in a batch is
	// waited for, as its outcome is being decided.
	g.mu.Lock()
	if i := slices.Index(g.queue, w); i >= 0 {
		g.queue = slices.Delete(g.queue, i, i+1)
		g.mu.Unlock()
		return ctx.Err()
	}
	g.mu.Unlock()
	return <-w.done
}

// loop commits batches until no write waits. It takes the writer before
// it takes a batch: while the writer is busy elsewhere (a long
// transaction), the writes stay queued, where their callers may give up on
// them when their deadlines end.
func (g *groupCommit) loop(db *bun.DB) {
	for {
		c, err := db.Conn(context.Background())
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		if n == 0 {
			g.running = false
			g.mu.Unlock()
			if err == nil {
				_ = c.Close()
			}
			return
		}
		batch := g.queue[:n:n]
		g.queue = g.queue[n:]
		g.mu.Unlock()
		if err != nil {
			for _, w := range batch {
				w.done <- err
			}
			continue
		}
		g.commit(&c, batch)
		_ = c.Close()
	}
}

// commit runs one batch on the writer's connection c: a lone write on its
// own, several in one transaction with a savepoint each.
func (g *groupCommit) commit(db *bun.Conn, batch []*groupWrite) {
	if len(batch) == 1 {
		w := batch[0]
		var release func()
		if g.writer != nil {
			release = g.writer.hold("a grouped write (job outcome or delivery record)")
		}
		err := w.fn(w.ctx, db)
		if release != nil {
			release()
		}
		w.done <- err
		return
	}
	results := make([]error, len(batch))
	err := db.RunInTx(context.Background(), nil, func(ctx context.Context, tx bun.Tx) error {
		if g.writer != nil {
			defer g.writer.hold(fmt.Sprintf("a group commit of %d writes", len(batch)))()
		}
		for i, w := range batch {
			sp, err := tx.BeginTx(w.ctx, nil)
			if err != nil {
				return err
			}
			if results[i] = w.fn(w.ctx, sp); results[i] != nil {
				if err := sp.Rollback(); err != nil {
					return err
				}
				continue
			}
			if err := sp.Commit(); err != nil {
				return err
			}
		}
		return nil
	})
	for i, w := range batch {
		if err != nil {
			w.done <- err
			continue
		}
		w.done <- results[i]
	}
}

// grouped runs a small write that needs no answer but its error: inside
// the ctx's transaction when there is one, else in SQLite's next group
// commit, else (Postgres, whose pool commits concurrently) on its own.
func (c conn) grouped(ctx context.Context, fn func(ctx context.Context, db bun.IDB) error) error {
	if c.owner == nil {
		return fn(ctx, c.write)
	}
	if tx, ok := c.owner.txFrom(ctx); ok {
		return fn(ctx, tx)
	}
	if c.owner.dialect == DialectSQLite {
		started := time.Now()
		return c.owner.waitCause(c.owner.group.do(ctx, c.owner.write, fn), true, started)
	}
	return fn(ctx, c.write)
}
