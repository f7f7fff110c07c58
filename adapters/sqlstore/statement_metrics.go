package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

// statementHook is the bun query hook that hands every statement bun sends
// to the metrics page (ports.StatementMetrics): its kind, its table and how
// long it took. It reads what bun's event already holds and allocates
// nothing itself. Tables are named only when they are the schema's, read
// after each migration (schemaTables), so that a table expression or a
// statement the hook cannot read counts as "other" and the series stay as
// few as the schema's tables.
type statementHook struct {
	m      ports.StatementMetrics
	tables *atomic.Pointer[map[string]string]
}

func (h statementHook) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (h statementHook) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	took := time.Since(e.StartTime)
	op, table := statementOf(e)
	h.m.StatementDone(op, h.known(table), took, e.Err != nil && !errors.Is(e.Err, sql.ErrNoRows))
}

// known returns table as the schema's own string when it is one of the
// schema's tables, else ports.StatementTableOther.
func (h statementHook) known(table string) string {
	if table == "" {
		return ports.StatementTableOther
	}
	if m := h.tables.Load(); m != nil {
		if t, ok := (*m)[table]; ok {
			return t
		}
	}
	return ports.StatementTableOther
}

// statementOf reads a statement's kind and the table it names ("" when it
// names none the hook can read): from bun's query and model when bun built
// the statement, else from the text.
func statementOf(e *bun.QueryEvent) (ports.StatementOp, string) {
	op := ports.StatementOther
	switch e.IQuery.(type) {
	case *bun.SelectQuery:
		op = ports.StatementSelect
	case *bun.InsertQuery:
		op = ports.StatementInsert
	case *bun.UpdateQuery:
		op = ports.StatementUpdate
	case *bun.DeleteQuery:
		op = ports.StatementDelete
	default:
		op = statementOpOf(e.Query)
	}
	if tm, ok := e.Model.(bun.TableModel); ok && tm.Table() != nil {
		return op, tm.Table().Name
	}
	return op, statementTable(op, e.Query)
}

// statementOpOf reads a statement's kind from its first word.
func statementOpOf(q string) ports.StatementOp {
	w := firstWord(q)
	switch {
	case equalFoldASCII(w, "SELECT"):
		return ports.StatementSelect
	case equalFoldASCII(w, "INSERT"):
		return ports.StatementInsert
	case equalFoldASCII(w, "UPDATE"):
		return ports.StatementUpdate
	case equalFoldASCII(w, "DELETE"):
		return ports.StatementDelete
	}
	return ports.StatementOther
}

// statementTable reads the table a statement of kind op names first: the
// word after UPDATE, after INTO for an insert, after the first FROM for a
// select or a delete. It returns a part of q, "" when there is none.
func statementTable(op ports.StatementOp, q string) string {
	var after string
	switch op {
	case ports.StatementUpdate:
		after = "UPDATE"
	case ports.StatementInsert:
		after = "INTO"
	case ports.StatementSelect, ports.StatementDelete:
		after = "FROM"
	default:
		return ""
	}
	i := indexWordFold(q, after)
	if i < 0 {
		return ""
	}
	return unquoteIdent(firstWord(q[i+len(after):]))
}

// firstWord is q's first run of characters that are neither space nor
// punctuation that ends a name (a parenthesis or a comma).
func firstWord(q string) string {
	i := 0
	for i < len(q) && isSpace(q[i]) {
		i++
	}
	j := i
	for j < len(q) && !isSpace(q[j]) && q[j] != '(' && q[j] != ',' && q[j] != ';' {
		j++
	}
	return q[i:j]
}

// unquoteIdent drops the double quotes or backquotes around a name.
func unquoteIdent(w string) string {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '`') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1]
	}
	return w
}

// indexWordFold is the index of word (upper case ASCII) in q as a whole
// word, ignoring case; -1 when absent.
func indexWordFold(q, word string) int {
	for i := 0; i+len(word) <= len(q); i++ {
		if (i == 0 || isSpace(q[i-1]) || q[i-1] == ')') && equalFoldASCII(q[i:i+len(word)], word) &&
			(i+len(word) == len(q) || isSpace(q[i+len(word)]) || q[i+len(word)] == '"' || q[i+len(word)] == '`') {
			return i
		}
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// equalFoldASCII reports whether s equals upper (upper case ASCII) but for
// case.
func equalFoldASCII(s, upper string) bool {
	if len(s) != len(upper) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != upper[i] {
			return false
		}
	}
	return true
}

// ObserveStatements hands every statement bun sends on the database's pools
// to m, from now on. Call it once, before serving.
func (d *DB) ObserveStatements(ctx context.Context, m ports.StatementMetrics) {
	h := statementHook{m: m, tables: &d.schemaTables}
	d.write.AddQueryHook(h)
	if d.read != d.write {
		d.read.AddQueryHook(h)
	}
	// The schema may be there already (Migrate reads it again after it
	// runs); until it is, every table is "other".
	_ = d.readSchemaTables(ctx)
}

// readSchemaTables reads the names of the schema's tables into
// d.schemaTables, for the statement metrics' table labels.
func (d *DB) readSchemaTables(ctx context.Context) error {
	q := "SELECT name FROM sqlite_master WHERE type = 'table'"
	if d.dialect == DialectPostgres {
		q = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
	}
	var names []string
	if err := d.read.NewRaw(q).Scan(ctx, &names); err != nil {
		return err
	}
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = n
	}
	d.schemaTables.Store(&m)
	return nil
}
