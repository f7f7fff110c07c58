package testserver

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/depothq/depot/adapters/sqlstore"
)

// The servers of a test binary that start on Postgres copy one database
// migrated once (CREATE DATABASE … TEMPLATE): applying every migration
// statement by statement took about 1.8 s of each such start, a copy of the
// migrated database about 0.2 s. The server still runs its migrations on
// the copy and finds none pending. DropTemplate (TestMain) drops it.
var template struct {
	once sync.Once
	name string
	err  error
}

// createMigratedPostgresDB is CreatePostgresDB with the schema in place.
func createMigratedPostgresDB(t testing.TB) string {
	t.Helper()
	template.once.Do(func() { template.name, template.err = migratedTemplate() })
	if template.err != nil {
		t.Fatalf("migrated template database: %v", template.err)
	}
	return createPostgresDB(t, template.name)
}

// migratedTemplate makes a database, migrates it, and closes every
// connection to it (a template must have none while it is copied).
func migratedTemplate() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(PostgresDSN())))
	defer admin.Close()
	name := "depot_e2e_template_" + hex.EncodeToString(randBytes(6))
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("postgres at %s (set DEPOT_TEST_POSTGRES_DSN): %w", PostgresDSN(), err)
	}
	db, err := sqlstore.Open(ctx, sqlstore.Config{DSN: replaceDBName(PostgresDSN(), name)})
	if err == nil {
		err = db.Migrate(ctx)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		_, _ = admin.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		return "", err
	}
	return name, nil
}

// DropTemplate drops the migrated template database, if this process made
// one; TestMain calls it after the tests.
func DropTemplate() error {
	if template.name == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(PostgresDSN())))
	defer admin.Close()
	_, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+template.name+" WITH (FORCE)")
	return err
}
