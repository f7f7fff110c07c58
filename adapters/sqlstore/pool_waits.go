package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// writerHolder records what holds SQLite's one writer connection — a
// transaction and where it was begun, a group commit, the token last-use
// flush — so that a wait for the writer that runs out says what it waited
// behind, instead of a bare "context deadline exceeded".
type writerHolder struct {
	mu    sync.Mutex
	what  string
	since time.Time
}

// hold marks the writer as held by what until release is called.
func (h *writerHolder) hold(what string) (release func()) {
	h.mu.Lock()
	h.what, h.since = what, time.Now()
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		h.what, h.since = "", time.Time{}
		h.mu.Unlock()
	}
}

func (h *writerHolder) describe() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.what == "" {
		return "no transaction of this process"
	}
	return fmt.Sprintf("%s for %s", h.what, time.Since(h.since).Round(time.Millisecond))
}

// txCaller names the function outside this package that began a
// transaction, for writerHolder: a few frames, read only on SQLite, where
// the writer is one connection and this is what a stuck wait needs.
func txCaller() string {
	var pcs [8]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.Contains(f.Function, "/adapters/sqlstore.") && !strings.HasPrefix(f.Function, "github.com/uptrace/bun") {
			return "a transaction begun in " + f.Function
		}
		if !more {
			return "a transaction"
		}
	}
}

// isWaitEnd reports whether err is a wait that ran out: its context ended.
func isWaitEnd(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// poolState describes a pool for a wait that ran out.
func poolState(name string, db *sql.DB) string {
	s := db.Stats()
	return fmt.Sprintf("%s: %d of %d connections in use, %d waits so far", name, s.InUse, s.MaxOpenConnections, s.WaitCount)
}

// isBusy reports SQLite's SQLITE_BUSY: another connection to the file —
// another process (a second server, the admin commands), as this process
// has one writer — kept its write lock past busy_timeout.
func isBusy(err error) bool {
	var le *sqlite.Error
	return errors.As(err, &le) && le.Code()&0xff == sqlite3.SQLITE_BUSY
}

// waitCause adds to err, when it is a wait that ran out, what it waited
// for: on SQLite the read pool or the writer (and what holds it), on
// Postgres the pool. A wait for the file lock that outlasted busy_timeout
// is a wait that ran out too, and says so as context.DeadlineExceeded, so
// that callers treat both alike. Other errors are returned as they are.
func (d *DB) waitCause(err error, write bool, started time.Time) error {
	if d == nil {
		return err
	}
	waited := time.Since(started).Round(time.Millisecond)
	if d.dialect == DialectSQLite && isBusy(err) {
		return fmt.Errorf("%w (after %s; the database file stayed locked by another process past busy_timeout): %w",
			context.DeadlineExceeded, waited, err)
	}
	if !isWaitEnd(err) {
		return err
	}
	switch {
	case d.dialect != DialectSQLite:
		return fmt.Errorf("%w (after %s; %s)", err, waited, poolState("pool", d.write.DB))
	case write:
		return fmt.Errorf("%w (after %s; the SQLite writer is held by %s; %s)", err, waited,
			d.writer.describe(), poolState("writer", d.write.DB))
	default:
		return fmt.Errorf("%w (after %s; %s; the SQLite writer is held by %s)", err, waited,
			poolState("SQLite read pool", d.read.DB), d.writer.describe())
	}
}
