package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/depothq/depot/ports"
)

var _ ports.DatabaseProbe = (*DB)(nil)

// Ping runs SELECT 1 on the read pool, which never waits for SQLite's
// writer, and on SQLite checks that the database file is still on disk
// (an open connection would keep answering after it was removed).
func (d *DB) Ping(ctx context.Context) error {
	if d.file != "" {
		if _, err := os.Stat(d.file); err != nil {
			return fmt.Errorf("the SQLite file: %w", err)
		}
	}
	var one int
	if err := d.read.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return fmt.Errorf("the database: %w", err)
	}
	return nil
}

// Pools returns the connection pools by name, for the metrics page:
// SQLite's writer and readers, or Postgres's one pool.
func (d *DB) Pools() map[string]*sql.DB {
	if d.read == d.write {
		return map[string]*sql.DB{"main": d.write.DB}
	}
	return map[string]*sql.DB{"write": d.write.DB, "read": d.read.DB}
}
