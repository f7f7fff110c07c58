package sqlstore

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/depothq/depot/ports"
)

// A dump's database (`depot dump`, app/backup).
//
// SQLite is copied with VACUUM INTO: one statement that reads the database
// in one read transaction (WAL lets the server write meanwhile) and writes
// a compact, self-contained file. Postgres is exported table by table as
// JSON lines, all inside one REPEATABLE READ READ ONLY transaction, so every
// table is read at the same instant; JSON lines (not pg_dump's format) load
// into SQLite as well as into Postgres (site_loads.go).

// SnapshotFile is the SQLite copy's name under the archive's database prefix.
const SnapshotFile = "depot.db"

// SnapshotDirPrefix begins the name of the folder an SQLite snapshot is
// made in, beside the database. The snapshot holds a shared flock on the
// folder for as long as it is open (the kernel drops it when the process
// dies), so `depot doctor` tells a running dump's folder, however old,
// from one a killed dump left (adapters/blobs, TempFiles).
const SnapshotDirPrefix = ".dump-"

// SnapshotTablesDir holds the JSON lines files, one per table
// (<table>.jsonl), under the archive's database prefix.
const SnapshotTablesDir = "tables/"

// migrationTables are bun's bookkeeping: a loaded database is migrated by
// this program, not copied.
var migrationTables = map[string]bool{"bun_migrations": true, "bun_migration_locks": true}

var _ ports.DatabaseSnapshots = (*DB)(nil)

// Snapshot freezes the database (ports.DatabaseSnapshots).
func (d *DB) Snapshot(ctx context.Context) (ports.DatabaseSnapshot, error) {
	if d.dialect == DialectSQLite {
		return d.snapshotSQLite(ctx)
	}
	return d.snapshotPostgres(ctx)
}

// sqliteSnapshot is a VACUUM INTO copy in a temporary directory beside the
// database (the same file system, which has room for the database), held
// locked while the snapshot is open.
type sqliteSnapshot struct {
	dir, file, level string
	lock             *flock.Flock
}

// snapshotLockPoll is how often taking the folder's lock is tried again
// while another holds it: only a doctor's test of the lock, which takes it
// for a moment, can.
const snapshotLockPoll = 10 * time.Millisecond

func (d *DB) snapshotSQLite(ctx context.Context) (*sqliteSnapshot, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(d.file), SnapshotDirPrefix)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: snapshot: %w", err)
	}
	// Shared, on the folder opened read-only: a lock every file system
	// with locks grants on such a descriptor (NFS emulates flock with
	// POSIX locks, whose write lock would need the folder open for
	// writing). The doctor asks for the exclusive lock and leaves the
	// folder alone unless it gets it.
	s := &sqliteSnapshot{dir: tmp, file: filepath.Join(tmp, SnapshotFile),
		lock: flock.New(tmp, flock.SetFlag(os.O_RDONLY))}
	if ok, err := s.lock.TryRLockContext(ctx, snapshotLockPoll); !ok || err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("sqlstore: snapshot: locking %s: %w", tmp, errors.Join(err, ctx.Err()))
	}
	// The writer pool is this process's own (the dump's): the server's
	// writer is not held, and WAL lets it commit during the copy.
	if _, err := d.write.ExecContext(ctx, "VACUUM INTO ?", s.file); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("sqlstore: snapshot: VACUUM INTO: %w", err)
	}
	copyDB, err := sql.Open("sqlite", s.file+"?_pragma=query_only(1)")
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	defer copyDB.Close()
	if s.level, err = lastMigration(ctx, copyDB); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *sqliteSnapshot) Dialect() string        { return DialectSQLite }
func (s *sqliteSnapshot) MigrationLevel() string { return s.level }

// Close removes the folder, then lets its lock go: the folder is never
// there unlocked once the snapshot was taken.
func (s *sqliteSnapshot) Close() error {
	return errors.Join(os.RemoveAll(s.dir), s.lock.Close())
}

func (s *sqliteSnapshot) WriteTo(_ context.Context, w ports.SiteArchiveWriter, prefix string, progress func(string)) error {
	if err := addFile(w, prefix+SnapshotFile, s.file); err != nil {
		return err
	}
	progress(SnapshotFile)
	return nil
}

// addFile adds the file at path to the archive as name.
func addFile(w ports.SiteArchiveWriter, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return w.AddFile(name, 0o600, fi.Size(), f)
}

// lastMigration is the last migration applied to db.
func lastMigration(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (string, error) {
	var name string
	if err := q.QueryRowContext(ctx, "SELECT name FROM bun_migrations ORDER BY name DESC LIMIT 1").Scan(&name); err != nil {
		return "", fmt.Errorf("sqlstore: reading the migration level: %w", err)
	}
	return name, nil
}

// postgresSnapshot is a read-only transaction whose snapshot was taken
// when it was opened; it is read table by table afterwards.
type postgresSnapshot struct {
	conn  *sql.Conn
	tx    *sql.Tx
	level string
}

func (d *DB) snapshotPostgres(ctx context.Context) (*postgresSnapshot, error) {
	conn, err := d.write.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("sqlstore: snapshot: %w", err)
	}
	s := &postgresSnapshot{conn: conn, tx: tx}
	// A REPEATABLE READ transaction's snapshot is taken at its first
	// statement: this one, made while the caller holds pushes back.
	if s.level, err = lastMigration(ctx, tx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *postgresSnapshot) Dialect() string        { return DialectPostgres }
func (s *postgresSnapshot) MigrationLevel() string { return s.level }

func (s *postgresSnapshot) Close() error {
	return errors.Join(s.tx.Rollback(), s.conn.Close())
}

func (s *postgresSnapshot) WriteTo(ctx context.Context, w ports.SiteArchiveWriter, prefix string, progress func(string)) error {
	tables, err := postgresTables(ctx, s.tx)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp("", "depot-dump-table-*.jsonl")
	if err != nil {
		return err
	}
	defer tmp.Close()
	// The file loses its name at once and lives as long as the descriptor:
	// a dump killed part way leaves nothing in the temporary directory.
	if err := os.Remove(tmp.Name()); err != nil {
		return err
	}
	for _, t := range tables {
		if migrationTables[t.name] {
			continue
		}
		if err := tmp.Truncate(0); err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		bw := bufio.NewWriterSize(tmp, 1<<20)
		if err := exportTable(ctx, s.tx, t, bw); err != nil {
			return fmt.Errorf("sqlstore: exporting %s: %w", t.name, err)
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		size, err := tmp.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if err := w.AddFile(prefix+SnapshotTablesDir+t.name+".jsonl", 0o600, size, io.LimitReader(tmp, size)); err != nil {
			return err
		}
		progress(t.name)
	}
	return nil
}

// tableInfo is a table with the columns a dump carries (generated ones
// are left out: the database computes them) and their declared types.
type tableInfo struct {
	name    string
	columns []string
	types   []string
}

// queryer is what reading the catalogue needs (a transaction or a pool).
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// postgresTables lists the current schema's base tables with their
// columns, in name order.
func postgresTables(ctx context.Context, q queryer) ([]tableInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.data_type
		FROM information_schema.columns c JOIN information_schema.tables t
		  ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tableInfo
	for rows.Next() {
		var table, column, typ string
		if err := rows.Scan(&table, &column, &typ); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].name != table {
			out = append(out, tableInfo{name: table})
		}
		t := &out[len(out)-1]
		t.columns = append(t.columns, column)
		t.types = append(t.types, strings.ToLower(typ))
	}
	return out, rows.Err()
}

// tableHeader is the first line of a table's JSON lines file; each further
// line is one row, a JSON array in the header's column order.
type tableHeader struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns"`
}

// Cell encodings JSON has no type for.
type (
	jsonBytes struct {
		B64 string `json:"b64"`
	}
	jsonTime struct {
		Time string `json:"time"`
	}
)

// exportTable writes t's header and rows, ordered by the first column (the
// id), so that rows referring to earlier rows of the same table load after them.
func exportTable(ctx context.Context, q queryer, t tableInfo, w io.Writer) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(tableHeader{Table: t.name, Columns: t.columns}); err != nil {
		return err
	}
	quoted := make([]string, len(t.columns))
	for i, c := range t.columns {
		quoted[i] = quoteIdent(c)
	}
	rows, err := q.QueryContext(ctx, "SELECT "+strings.Join(quoted, ", ")+" FROM "+quoteIdent(t.name)+" ORDER BY 1")
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]any, len(t.columns))
	ptrs := make([]any, len(t.columns))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	cells := make([]any, len(t.columns))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			cells[i] = exportCell(v, t.types[i])
		}
		if err := enc.Encode(cells); err != nil {
			return err
		}
	}
	return rows.Err()
}

// exportCell turns a scanned value into its JSON form.
func exportCell(v any, typ string) any {
	switch x := v.(type) {
	case []byte:
		if isBinaryType(typ) {
			return jsonBytes{B64: base64.StdEncoding.EncodeToString(x)}
		}
		return string(x)
	case time.Time:
		return jsonTime{Time: x.UTC().Format(time.RFC3339Nano)}
	}
	return v
}

// isBinaryType reports whether a declared column type holds bytes.
func isBinaryType(typ string) bool {
	typ = strings.ToLower(typ)
	return typ == "bytea" || strings.Contains(typ, "blob")
}

// quoteIdent quotes a table or column name for either database.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
