package sqlstore

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

// TestStatementOfText reads the kind and table of statements bun did not
// build (raw statements, prepared texts): the main statement past a WITH,
// the table of a FROM outside parentheses and strings, or the one its
// subquery reads.
func TestStatementOfText(t *testing.T) {
	for q, want := range map[string]struct {
		op    ports.StatementOp
		table string
	}{
		`SELECT "u"."id" FROM "users" AS "u" WHERE (u.id = 1)`:        {ports.StatementSelect, "users"},
		"  select count(*) from issues i join repositories r on true": {ports.StatementSelect, "issues"},
		`INSERT INTO "jobs" ("kind") VALUES ('x')`:                    {ports.StatementInsert, "jobs"},
		`UPDATE access_tokens SET last_used = 1`:                      {ports.StatementUpdate, "access_tokens"},
		"DELETE FROM `stars` WHERE id = 2":                            {ports.StatementDelete, "stars"},
		"BEGIN":                                                       {ports.StatementOther, ""},
		"WITH x AS (SELECT 1) SELECT * FROM x":                        {ports.StatementSelect, "x"},
		"WITH RECURSIVE q(n) AS (SELECT 1 FROM jobs FOR UPDATE), d AS (SELECT 2) UPDATE jobs SET n = 1 WHERE id IN (SELECT n FROM q)": {
			ports.StatementUpdate, "jobs"},
		"WITH x AS (SELECT ')' FROM a)": {ports.StatementOther, ""},
		"SELECT * FROM (SELECT * FROM webhooks WHERE a UNION ALL SELECT * FROM hooks) AS wh": {ports.StatementSelect, "webhooks"},
		"SELECT (SELECT count(*) FROM comments) AS n, i.id FROM issues AS i":                 {ports.StatementSelect, "issues"},
		"SELECT 'a FROM b' FROM users":     {ports.StatementSelect, "users"},
		"SELECT 1":                         {ports.StatementSelect, ""},
		"SELECT pg_advisory_lock(1)":       {ports.StatementSelect, ""},
		"SELECT id FROM(SELECT 1)":         {ports.StatementSelect, ""},
		"SELECT id FROM (SELECT 1) AS one": {ports.StatementSelect, ""},
	} {
		op := statementOpOf(q)
		if op != want.op {
			t.Errorf("%q: kind %v, want %v", q, op, want.op)
		}
		if got := statementTable(op, q); got != want.table {
			t.Errorf("%q: table %q, want %q", q, got, want.table)
		}
	}
}

// FuzzStatementTable reads any text without panicking, and names a table
// only as a part of the text.
func FuzzStatementTable(f *testing.F) {
	f.Add(`SELECT * FROM "users" WHERE id = 1`)
	f.Add("insert into`x`")
	f.Add("UPDATE")
	f.Fuzz(func(t *testing.T, q string) {
		op := statementOpOf(q)
		if table := statementTable(op, q); !strings.Contains(q, table) {
			t.Fatalf("%q: table %q is not in the text", q, table)
		}
	})
}

type discardStatements struct{}

func (discardStatements) StatementDone(ports.StatementOp, string, time.Duration, bool) {}

// BenchmarkStatementHook is the hook's own cost per statement, past what
// bun spends on its event: a statement bun built on a model, and a raw
// text the hook reads.
func BenchmarkStatementHook(b *testing.B) {
	tables := map[string]string{"users": "users", "issues": "issues"}
	var known atomic.Pointer[map[string]string]
	known.Store(&tables)
	h := statementHook{m: discardStatements{}, tables: &known}
	d, err := Open(context.Background(), Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = d.Close() })
	q := d.read.NewSelect().Model((*userRow)(nil)).Where("u.id = 1")
	events := map[string]*bun.QueryEvent{
		"model": {IQuery: q, Model: q.GetModel(), Query: q.String(), StartTime: time.Now()},
		"raw":   {Query: `SELECT count(*) FROM "issues" WHERE repo_id = 7 AND is_closed = FALSE`, StartTime: time.Now()},
	}
	for name, e := range events {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				h.AfterQuery(context.Background(), e)
			}
		})
	}
}
