package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
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
	h.m.StatementDone(op, h.known(table), took, statementFailed(e.Err))
}

// statementFailed is whether a statement that ended with err counts as a
// failure on the metrics page: finding no row is none.
func statementFailed(err error) bool {
	return err != nil && !errors.Is(err, sql.ErrNoRows)
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

// statementOpOf reads a statement's kind from its first word, past the
// common table expressions of a WITH (mainStatement).
func statementOpOf(q string) ports.StatementOp {
	w := firstWord(mainStatement(q))
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

// mainStatement is q from its main statement on: past the common table
// expressions of a WITH, the first SELECT, INSERT, UPDATE or DELETE outside
// parentheses; q itself when it does not start with WITH or none follows.
func mainStatement(q string) string {
	if !equalFoldASCII(firstWord(q), "WITH") {
		return q
	}
	first := -1
	for _, w := range [...]string{"SELECT", "INSERT", "UPDATE", "DELETE"} {
		if i := indexWordFold(q, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return q
	}
	return q[first:]
}

// statementTable reads the table a statement of kind op names first: the
// word after UPDATE, after INTO for an insert, after the first FROM for a
// select or a delete, all outside parentheses (past a WITH's common table
// expressions, mainStatement); when that FROM reads a subquery, the table
// the subquery names. It returns a part of q, "" when there is none.
func statementTable(op ports.StatementOp, q string) string {
	q = mainStatement(q)
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
	for {
		i := indexWordFold(q, after)
		if i < 0 {
			return ""
		}
		q = q[i+len(after):]
		if w := firstWord(q); w != "" || after != "FROM" {
			return unquoteIdent(w)
		}
		// FROM (subquery): the subquery's own FROM, outside its own
		// parentheses.
		j := 0
		for j < len(q) && isSpace(q[j]) {
			j++
		}
		if j == len(q) || q[j] != '(' {
			return ""
		}
		q = q[j+1:]
	}
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
// word, ignoring case, outside parentheses and quotes (a subquery's or a
// string's words are not the statement's); -1 when absent. A closing
// parenthesis with no opening one ends the search: q is then the inside of
// a subquery, and its words stop there.
func indexWordFold(q, word string) int {
	depth := 0
	for i := 0; i+len(word) <= len(q); i++ {
		switch c := q[i]; c {
		case '(':
			depth++
			continue
		case ')':
			if depth--; depth < 0 {
				return -1
			}
			continue
		case '\'', '"', '`':
			j := strings.IndexByte(q[i+1:], c)
			if j < 0 {
				return -1
			}
			i += j + 1
			continue
		}
		if depth == 0 && (i == 0 || isSpace(q[i-1]) || q[i-1] == ')') && equalFoldASCII(q[i:i+len(word)], word) &&
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
// to m, from now on, and every run of the statements the stores prepared
// themselves (prepared_runs.go), which bun does not see. Call it once,
// before serving.
func (d *DB) ObserveStatements(ctx context.Context, m ports.StatementMetrics) {
	d.stmts.sink.Store(&statementSink{m: m})
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
