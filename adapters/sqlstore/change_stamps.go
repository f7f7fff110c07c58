package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"

	"github.com/depothq/depot/ports"
)

// ChangeStamps implements ports.ChangeStamps from the database's own
// record of commits, so that every write counts, whichever statement or
// server made it:
//   - on Postgres, the text of a fresh snapshot (xmin:xmax:in-progress ids):
//     a commit moves its transaction out of the in-progress list or below a
//     higher xmax, so no commit leaves the text as it was;
//   - on SQLite, `PRAGMA data_version` of a connection opened for it alone
//     (beside the read pool, which it would otherwise take one of), which
//     changes whenever another connection (the writer) commits. The number
//     is only comparable on the same connection, so the stamp also names the
//     connection, and a replaced connection gives new stamps.
type ChangeStamps struct {
	d *DB

	mu    sync.Mutex
	pool  *sql.DB
	conn  *sql.Conn
	epoch int
}

var _ ports.ChangeStamps = (*ChangeStamps)(nil)

// ChangeStamps returns the database's change stamps (one per handle: the
// SQLite connection it keeps is shared by every caller).
func (d *DB) ChangeStamps() *ChangeStamps {
	d.changeStampsOnce.Do(func() { d.changeStamps = &ChangeStamps{d: d} })
	return d.changeStamps
}

// Stamp returns the current change stamp.
func (c *ChangeStamps) Stamp(ctx context.Context) (string, error) {
	if c.d.dialect == DialectPostgres {
		var snap string
		if err := c.d.read.QueryRowContext(ctx, "SELECT pg_current_snapshot()::text").Scan(&snap); err != nil {
			return "", fmt.Errorf("sqlstore: change stamp: %w", err)
		}
		return snap, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		if c.pool == nil {
			pool, err := sql.Open("sqlite", c.d.file+"?"+sqlitePragmas+"&_pragma=query_only(1)")
			if err != nil {
				return "", fmt.Errorf("sqlstore: change stamp: %w", err)
			}
			pool.SetMaxOpenConns(1)
			c.pool = pool
		}
		conn, err := c.pool.Conn(ctx)
		if err != nil {
			return "", fmt.Errorf("sqlstore: change stamp: %w", err)
		}
		c.conn = conn
		c.epoch++
	}
	var version int64
	if err := c.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&version); err != nil {
		// The next stamp comes from a new connection, with a new epoch.
		_ = c.conn.Close()
		c.conn = nil
		return "", fmt.Errorf("sqlstore: change stamp: %w", err)
	}
	return strconv.Itoa(c.epoch) + "." + strconv.FormatInt(version, 10), nil
}

// close closes the SQLite connection, if one was opened.
func (c *ChangeStamps) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
	if c.pool == nil {
		return nil
	}
	err := c.pool.Close()
	c.pool = nil
	return err
}
