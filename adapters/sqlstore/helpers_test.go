package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/depothq/depot/adapters/sqlstore"
)

const defaultPostgresDSN = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// backend opens fresh databases of one kind; cfg gives a new empty database
// each call, and open connects to one (twice on the same cfg gives two
// handles on one database, as the server and the admin CLI have).
type backend struct {
	name string
	cfg  func(t *testing.T) sqlstore.Config
}

var backends = []backend{
	{"sqlite", func(t *testing.T) sqlstore.Config { return sqlstore.Config{DataDir: t.TempDir()} }},
	{"postgres", func(t *testing.T) sqlstore.Config { return sqlstore.Config{DSN: newPostgresDatabase(t)} }},
}

// open connects to cfg's database and closes it when the test ends.
func open(t *testing.T, cfg sqlstore.Config) *sqlstore.DB {
	t.Helper()
	d, err := sqlstore.Open(t.Context(), cfg)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// openMigrated is a fresh, migrated database of b's kind.
func openMigrated(t *testing.T, b backend) *sqlstore.DB {
	t.Helper()
	d := open(t, b.cfg(t))
	if err := d.Migrate(t.Context()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return d
}

// pgAdmin is the connection that creates and drops the per-test databases,
// shared by all tests so that each does not pay for a connection of its own.
var pgAdmin struct {
	once sync.Once
	db   *sql.DB
	dsn  *url.URL
	err  error
}

// newPostgresDatabase creates an empty database for this test and drops it
// when the test ends. An unreachable server fails the test: a green run must
// mean both backends passed. DEPOT_TEST_NO_POSTGRES=1 opts out explicitly.
func newPostgresDatabase(t *testing.T) string {
	t.Helper()
	if os.Getenv("DEPOT_TEST_NO_POSTGRES") == "1" {
		t.Skip("Postgres tests disabled by DEPOT_TEST_NO_POSTGRES=1")
	}
	pgAdmin.once.Do(func() {
		dsn := os.Getenv("DEPOT_TEST_POSTGRES_DSN")
		if dsn == "" {
			dsn = defaultPostgresDSN
		}
		pgAdmin.dsn, pgAdmin.err = url.Parse(dsn)
		if pgAdmin.err != nil {
			return
		}
		pgAdmin.db = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		pgAdmin.err = pgAdmin.db.PingContext(ctx)
	})
	if pgAdmin.err != nil {
		t.Fatalf("Postgres for tests is unreachable (set DEPOT_TEST_POSTGRES_DSN, or DEPOT_TEST_NO_POSTGRES=1 to skip): %v", pgAdmin.err)
	}

	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := "depot_test_" + hex.EncodeToString(b)
	if _, err := pgAdmin.db.ExecContext(t.Context(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	// Registered first so it runs last, after every handle on it is closed;
	// FORCE still ends a connection a failing test leaked.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := pgAdmin.db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u := *pgAdmin.dsn
	u.Path = "/" + name
	return u.String()
}
