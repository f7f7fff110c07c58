package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Loading a dump's database into a new site (`depot restore`).
//
// An SQLite copy restored onto SQLite is put in place as the database file.
// Every other pairing goes through the JSON lines form: the new database is
// migrated, then each table is filled in an order where a row's foreign
// keys point at rows already loaded, in one transaction; Postgres'
// sequences are moved past the loaded ids. An SQLite copy loaded into
// Postgres is read table by table for that.

// Loader implements ports.DatabaseLoader for the database cfg names.
type Loader struct{ cfg Config }

var _ ports.DatabaseLoader = (*Loader)(nil)

// NewLoader loads into the database cfg names (SQLite under its data
// directory when the DSN is empty).
func NewLoader(cfg Config) *Loader { return &Loader{cfg: cfg} }

// MigrationLevel is the last migration this program applies.
func (l *Loader) MigrationLevel() string {
	ms := migrations().Sorted()
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1].Name
}

// Load fills the new database from what a dump wrote under prefix.
func (l *Loader) Load(ctx context.Context, dir ports.SiteDirectory, prefix, dialect string, progress func(string)) error {
	src := filepath.Join(l.cfg.DataDir, filepath.FromSlash(prefix))
	defer os.RemoveAll(src)
	sqliteTarget := strings.TrimSpace(l.cfg.DSN) == ""
	if dialect == DialectSQLite && sqliteTarget {
		// The copy is the database: put it in place, then migrate it
		// forward when this program is newer than the dump.
		if err := os.Rename(filepath.Join(src, SnapshotFile), filepath.Join(l.cfg.DataDir, SQLiteFile)); err != nil {
			return fmt.Errorf("sqlstore: placing the database: %w", err)
		}
		progress(SnapshotFile)
		return l.migrate(ctx)
	}
	var tables tableSource
	switch dialect {
	case DialectSQLite:
		copyDB, err := sql.Open("sqlite", filepath.Join(src, SnapshotFile)+"?_pragma=query_only(1)")
		if err != nil {
			return err
		}
		defer copyDB.Close()
		tables = sqliteTableSource{db: copyDB}
	case DialectPostgres:
		tables = jsonlTableSource{dir: filepath.Join(src, filepath.FromSlash(SnapshotTablesDir))}
	default:
		return fmt.Errorf("%w: the dump's database is of an unknown kind %q", errs.ErrBadRequest, dialect)
	}
	db, err := Open(ctx, l.cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.refuseData(ctx); err != nil {
		return err
	}
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	return db.loadTables(ctx, tables, progress)
}

func (l *Loader) migrate(ctx context.Context) error {
	db, err := Open(ctx, l.cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Migrate(ctx)
}

// refuseData fails when the database already holds accounts: a restore
// never mixes two sites.
func (d *DB) refuseData(ctx context.Context) error {
	var n int
	err := d.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM users").Scan(&n)
	if err != nil {
		return nil // no users table yet: an empty database
	}
	if n > 0 {
		return fmt.Errorf("%w: the database already holds a site (%d accounts); restore needs an empty one", errs.ErrConflict, n)
	}
	return nil
}

// sqliteTable describes an SQLite table's stored columns.
func sqliteTable(ctx context.Context, q queryer, table string) (tableInfo, bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, type, hidden FROM pragma_table_xinfo(?)", table)
	if err != nil {
		return tableInfo{}, false, err
	}
	defer rows.Close()
	t := tableInfo{name: table}
	for rows.Next() {
		var name, typ string
		var hidden int
		if err := rows.Scan(&name, &typ, &hidden); err != nil {
			return t, false, err
		}
		if hidden != 0 { // generated or a virtual table's hidden column
			continue
		}
		t.columns = append(t.columns, name)
		t.types = append(t.types, strings.ToLower(typ))
	}
	return t, len(t.columns) > 0, rows.Err()
}

// targetTables lists the tables to fill, parents before children.
func (d *DB) targetTables(ctx context.Context) ([]tableInfo, error) {
	var tables []tableInfo
	parents := map[string][]string{}
	if d.dialect == DialectPostgres {
		var err error
		if tables, err = postgresTables(ctx, d.write); err != nil {
			return nil, err
		}
		rows, err := d.write.QueryContext(ctx, `SELECT c.conrelid::regclass::text, c.confrelid::regclass::text
			FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
			WHERE c.contype = 'f' AND n.nspname = current_schema()`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var child, parent string
			if err := rows.Scan(&child, &parent); err != nil {
				return nil, err
			}
			parents[strings.Trim(child, `"`)] = append(parents[strings.Trim(child, `"`)], strings.Trim(parent, `"`))
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	} else {
		// Base tables only: FTS5 tables and their shadows are filled by
		// the triggers on the tables they index.
		rows, err := d.write.QueryContext(ctx, `SELECT name, sql LIKE 'CREATE VIRTUAL%' FROM sqlite_schema
			WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
		if err != nil {
			return nil, err
		}
		var names, virtual []string
		for rows.Next() {
			var n string
			var isVirtual bool
			if err := rows.Scan(&n, &isVirtual); err != nil {
				rows.Close()
				return nil, err
			}
			if isVirtual {
				virtual = append(virtual, n)
			} else {
				names = append(names, n)
			}
		}
		rows.Close()
		fts := map[string]bool{}
		for _, n := range names {
			for _, v := range virtual {
				if strings.HasPrefix(n, v+"_") { // a virtual table's shadow
					fts[n] = true
				}
			}
		}
		for _, n := range names {
			if fts[n] {
				continue
			}
			t, ok, err := sqliteTable(ctx, d.write, n)
			if err != nil {
				return nil, err
			}
			if ok {
				tables = append(tables, t)
			}
			fk, err := d.write.QueryContext(ctx, `SELECT "table" FROM pragma_foreign_key_list(?)`, n)
			if err != nil {
				return nil, err
			}
			for fk.Next() {
				var p string
				if err := fk.Scan(&p); err != nil {
					fk.Close()
					return nil, err
				}
				parents[n] = append(parents[n], p)
			}
			fk.Close()
		}
	}
	return orderByParents(tables, parents), nil
}

// orderByParents sorts tables so that each comes after the tables its
// foreign keys name (a table's references to itself, and cycles, are left
// to the order of the rows).
func orderByParents(tables []tableInfo, parents map[string][]string) []tableInfo {
	byName := map[string]tableInfo{}
	for _, t := range tables {
		byName[t.name] = t
	}
	var out []tableInfo
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(string)
	visit = func(n string) {
		if state[n] != 0 {
			return
		}
		state[n] = 1
		ps := slices.Clone(parents[n])
		slices.Sort(ps)
		for _, p := range ps {
			if p != n {
				visit(p)
			}
		}
		state[n] = 2
		if t, ok := byName[n]; ok {
			out = append(out, t)
		}
	}
	for _, t := range tables {
		visit(t.name)
	}
	return out
}

// loadTables fills every table of the new database from src in one
// transaction, after emptying what the migrations seeded.
func (d *DB) loadTables(ctx context.Context, src tableSource, progress func(string)) error {
	tables, err := d.targetTables(ctx)
	if err != nil {
		return err
	}
	conn, err := d.write.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d.dialect == DialectSQLite {
		// Off for the load (a pragma that cannot change inside a
		// transaction); foreign_key_check below verifies the result.
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return err
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON") //nolint:errcheck
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	if d.dialect == DialectPostgres {
		// Triggers (the release version counters) would rewrite loaded
		// values; a superuser may switch them off for the load. Without
		// the right the parents-first order keeps the keys satisfied.
		if _, err := tx.ExecContext(ctx, "SAVEPOINT replica"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT replica"); err != nil {
				return err
			}
		}
	}
	for i := len(tables) - 1; i >= 0; i-- {
		if migrationTables[tables[i].name] {
			continue
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+quoteIdent(tables[i].name)); err != nil {
			return fmt.Errorf("sqlstore: emptying %s: %w", tables[i].name, err)
		}
	}
	for _, t := range tables {
		if migrationTables[t.name] {
			continue
		}
		ins := &tableInserter{d: d, tx: tx, t: t}
		found, err := src.Rows(ctx, t.name, ins.add)
		if err == nil {
			err = ins.flush(ctx)
		}
		if err != nil {
			return fmt.Errorf("sqlstore: loading %s: %w", t.name, err)
		}
		if found {
			progress(t.name)
		}
	}
	if d.dialect == DialectPostgres {
		if err := resetSequences(ctx, tx); err != nil {
			return err
		}
	} else {
		rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return err
		}
		bad := rows.Next()
		rows.Close()
		if bad {
			return fmt.Errorf("%w: the dump's rows break a foreign key", errs.ErrBadRequest)
		}
	}
	return tx.Commit()
}

// tableInserter batches a table's rows into multi-row INSERTs.
type tableInserter struct {
	d       *DB
	tx      *sql.Tx
	t       tableInfo
	cols    []int // target column index of each source column, -1 to drop
	srcCols []string
	rows    int
	args    []any
}

func (in *tableInserter) add(columns []string, row []any) error {
	if in.cols == nil || !slices.Equal(columns, in.srcCols) {
		if err := in.flush(context.Background()); err != nil {
			return err
		}
		in.srcCols = slices.Clone(columns)
		in.cols = make([]int, len(columns))
		for i, c := range columns {
			in.cols[i] = slices.Index(in.t.columns, c)
		}
	}
	for i, v := range row {
		if in.cols[i] < 0 {
			continue
		}
		cv, err := convertCell(v, in.t.types[in.cols[i]], in.d.dialect)
		if err != nil {
			return fmt.Errorf("column %s: %w", columns[i], err)
		}
		in.args = append(in.args, cv)
	}
	in.rows++
	if len(in.args) >= 30000 || in.rows >= 500 {
		return in.flush(context.Background())
	}
	return nil
}

func (in *tableInserter) flush(ctx context.Context) error {
	if in.rows == 0 {
		return nil
	}
	var names []string
	for i, c := range in.srcCols {
		if in.cols[i] >= 0 {
			names = append(names, quoteIdent(c))
		}
	}
	var b strings.Builder
	b.WriteString("INSERT INTO " + quoteIdent(in.t.name) + " (" + strings.Join(names, ", ") + ") VALUES ")
	n := 0
	for r := 0; r < in.rows; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range names {
			if c > 0 {
				b.WriteString(", ")
			}
			n++
			if in.d.dialect == DialectPostgres {
				b.WriteString("$" + strconv.Itoa(n))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	_, err := in.tx.ExecContext(ctx, b.String(), in.args...)
	in.rows, in.args = 0, in.args[:0]
	return err
}

// convertCell makes v fit a column of type typ on dialect: booleans are
// integers on SQLite, times are bun's text on SQLite, bytes may come as
// text.
func convertCell(v any, typ, dialect string) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch {
	case strings.Contains(typ, "bool"):
		switch x := v.(type) {
		case int64:
			v = x != 0
		case string:
			b, err := strconv.ParseBool(x)
			if err != nil {
				return nil, err
			}
			v = b
		}
		if dialect == DialectSQLite {
			if b, ok := v.(bool); ok {
				if b {
					return int64(1), nil
				}
				return int64(0), nil
			}
		}
		return v, nil
	case strings.Contains(typ, "time") || strings.Contains(typ, "date"):
		if s, ok := v.(string); ok {
			t, err := parseStoredTime(s)
			if err != nil {
				return nil, err
			}
			v = t
		}
		if t, ok := v.(time.Time); ok && dialect == DialectSQLite {
			return t.UTC().Format("2006-01-02 15:04:05.999999-07:00"), nil
		}
		return v, nil
	case isBinaryType(typ):
		if s, ok := v.(string); ok {
			return []byte(s), nil
		}
	case dialect == DialectPostgres && (strings.Contains(typ, "int") || typ == "numeric"):
		if b, ok := v.(bool); ok {
			if b {
				return int64(1), nil
			}
			return int64(0), nil
		}
	}
	return v, nil
}

// parseStoredTime reads a time as SQLite keeps it (bun's layout, or
// RFC 3339).
func parseStoredTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable time %q", s)
}

// resetSequences moves every serial column's sequence past the loaded ids.
func resetSequences(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`)
	if err != nil {
		return err
	}
	type col struct{ table, column string }
	var cols []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.table, &c.column); err != nil {
			rows.Close()
			return err
		}
		cols = append(cols, c)
	}
	rows.Close()
	for _, c := range cols {
		q := fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%s', '%s'), COALESCE(MAX(%s), 0) + 1, false) FROM %s`,
			strings.ReplaceAll(quoteIdent(c.table), "'", "''"), strings.ReplaceAll(c.column, "'", "''"),
			quoteIdent(c.column), quoteIdent(c.table))
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("sqlstore: resetting %s.%s: %w", c.table, c.column, err)
		}
	}
	return nil
}
