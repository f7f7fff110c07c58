package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/contract"
)

func TestStoreContract(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			contract.RunStoreSuite(t, func(t *testing.T) (ports.Stores, ports.Transactor) {
				d := openMigrated(t, b)
				return d.Stores(), d.Transactor()
			})
		})
	}
}

func newUser(name string) *user.User {
	return &user.User{Name: name, LowerName: strings.ToLower(name), Visibility: user.VisibilityPublic, IsActive: true}
}

func TestOpenAndMigrate(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Run("Dialect", func(t *testing.T) {
				is := is.New(t)
				is.Equal(open(t, b.cfg(t)).Dialect(), b.name)
			})
			t.Run("MigrateTwiceIsANoOp", func(t *testing.T) {
				is := is.New(t)
				d := openMigrated(t, b)
				is.NoErr(d.Stores().Users.Create(t.Context(), newUser("survivor")))
				is.NoErr(d.Migrate(t.Context()))
				is.NoErr(d.Migrate(t.Context()))
				n, err := d.Stores().Users.Count(t.Context())
				is.NoErr(err)
				is.Equal(n, int64(1)) // data survives a repeated migrate
			})
			t.Run("ConcurrentMigrateFromTwoHandles", func(t *testing.T) {
				is := is.New(t)
				cfg := b.cfg(t)
				handles := []*sqlstore.DB{open(t, cfg), open(t, cfg), open(t, cfg)}
				var wg sync.WaitGroup
				errs := make([]error, len(handles))
				for i, d := range handles {
					wg.Go(func() { errs[i] = d.Migrate(t.Context()) })
				}
				wg.Wait()
				for _, err := range errs {
					is.NoErr(err)
				}
				for i, d := range handles {
					is.NoErr(d.Stores().Users.Create(t.Context(), newUser(fmt.Sprintf("u%d", i))))
				}
				is.Equal(appliedMigrations(t, handles[0], cfg), sqlstore.MigrationCount()) // each recorded once, not once per migrator
			})
		})
	}
}

// appliedMigrations counts bun's migration records with a plain connection,
// since the package does not expose the bookkeeping.
func appliedMigrations(t *testing.T, d *sqlstore.DB, cfg sqlstore.Config) int {
	t.Helper()
	var db *sql.DB
	var err error
	if d.Dialect() == sqlstore.DialectSQLite {
		db, err = sql.Open("sqlite", filepath.Join(cfg.DataDir, sqlstore.SQLiteFile))
	} else {
		db, err = sql.Open("pg", cfg.DSN)
	}
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(t.Context(), "SELECT count(*) FROM bun_migrations").Scan(&n); err != nil {
		t.Fatalf("count migrations: %v", err)
	}
	return n
}

func TestOpenRejectsUnknownDSNWithoutEchoingIt(t *testing.T) {
	is := is.New(t)
	_, err := sqlstore.Open(t.Context(), sqlstore.Config{DSN: "mysql://root:hunter2@db/depot"})
	is.True(err != nil)
	is.True(!strings.Contains(err.Error(), "hunter2")) // the password stays out of logs
}

func TestSQLiteCreatesAPrivateDataDir(t *testing.T) {
	is := is.New(t)
	dir := filepath.Join(t.TempDir(), "nested", "data")
	d := open(t, sqlstore.Config{DataDir: dir})
	is.NoErr(d.Migrate(t.Context()))
	st, err := os.Stat(dir)
	is.NoErr(err)
	is.Equal(st.Mode().Perm(), os.FileMode(0o700))
	_, err = os.Stat(filepath.Join(dir, sqlstore.SQLiteFile))
	is.NoErr(err)
}

// The admin CLI writes while the server runs: two handles on one SQLite file
// must both be able to write, each waiting its turn instead of failing busy.
func TestSQLiteTwoHandlesBothWrite(t *testing.T) {
	is := is.New(t)
	cfg := sqlstore.Config{DataDir: t.TempDir()}
	server, cli := open(t, cfg), open(t, cfg)
	is.NoErr(server.Migrate(t.Context()))

	const perHandle = 25
	var wg sync.WaitGroup
	errc := make(chan error, 2*perHandle)
	for h, d := range []*sqlstore.DB{server, cli} {
		wg.Go(func() {
			for i := range perHandle {
				name := fmt.Sprintf("h%d-u%d", h, i)
				if i%2 == 0 {
					errc <- d.Stores().Users.Create(t.Context(), newUser(name))
					continue
				}
				// Read-then-write transactions are where a deferred BEGIN
				// would hit SQLITE_BUSY on lock upgrade.
				errc <- d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
					if _, err := tx.Users.Count(ctx); err != nil {
						return err
					}
					return tx.Users.Create(ctx, newUser(name))
				})
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		is.NoErr(err)
	}
	for _, d := range []*sqlstore.DB{server, cli} {
		n, err := d.Stores().Users.Count(t.Context())
		is.NoErr(err)
		is.Equal(n, int64(2*perHandle))
	}
}

// Plain reads run on the reader pool, so an open write transaction (which
// holds SQLite's only writer connection) does not delay them.
func TestReadsDoNotWaitForAnOpenTransaction(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			existing := newUser("existing")
			is.NoErr(d.Stores().Users.Create(t.Context(), existing))

			err := d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
				is.NoErr(tx.Users.Create(ctx, newUser("pending")))
				outside, cancel := context.WithTimeout(t.Context(), 2*time.Second)
				defer cancel()
				got, err := d.Stores().Users.GetByID(outside, existing.ID)
				is.NoErr(err)
				is.Equal(got.Name, "existing")
				_, err = d.Stores().Users.GetByName(outside, "pending")
				is.True(errors.Is(err, errs.ErrNotFound)) // uncommitted work is invisible outside
				return nil
			})
			is.NoErr(err)
		})
	}
}

// Non-transactional stores called with a transaction's ctx join it. On SQLite
// anything else would wait forever for the writer connection the transaction holds.
func TestStoresJoinTheTransactionInCtx(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			boom := errors.New("boom")
			err := d.InTx(ctx, func(ctx context.Context, _ ports.Stores) error {
				if err := d.Stores().Users.Create(ctx, newUser("joined")); err != nil {
					return err
				}
				if _, err := d.Stores().Users.GetByName(ctx, "joined"); err != nil {
					return err // visible through the same transaction
				}
				return boom
			})
			is.True(errors.Is(err, boom))
			_, err = d.Stores().Users.GetByName(t.Context(), "joined")
			is.True(errors.Is(err, errs.ErrNotFound)) // rolled back with the transaction
		})
	}
}

// A nested InTx is a savepoint: its failure undoes only its own writes when
// the outer function carries on.
func TestNestedFailureUndoesOnlyTheInnerWork(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			boom := errors.New("boom")
			err := d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
				if err := tx.Users.Create(ctx, newUser("outer")); err != nil {
					return err
				}
				inner := d.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
					if err := tx.Users.Create(ctx, newUser("inner")); err != nil {
						return err
					}
					return boom
				})
				is.True(errors.Is(inner, boom))
				return nil
			})
			is.NoErr(err)
			_, err = d.Stores().Users.GetByName(t.Context(), "outer")
			is.NoErr(err)
			_, err = d.Stores().Users.GetByName(t.Context(), "inner")
			is.True(errors.Is(err, errs.ErrNotFound))
		})
	}
}

// A ctx that outlives its transaction (kept by a goroutine) must not reach
// the finished sql.Tx.
func TestCtxOutlivingItsTransactionUsesThePools(t *testing.T) {
	is := is.New(t)
	d := openMigrated(t, backends[0])
	var kept context.Context
	is.NoErr(d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
		kept = ctx
		return nil
	}))
	is.NoErr(d.Stores().Users.Create(kept, newUser("later")))
	_, err := d.Stores().Users.GetByName(kept, "later")
	is.NoErr(err)
}

func TestDriverTextNeverLeaks(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			is.NoErr(d.Stores().Users.Create(t.Context(), newUser("dup")))
			err := d.Stores().Users.Create(t.Context(), newUser("DUP"))
			is.Equal(err.Error(), "user already exists") // no constraint or table names
		})
	}
}

// The hot lookups are prepared on first use; one made before the tables
// exist must not leave the handle broken once they do.
func TestLookupsBeforeMigrateDoNotStick(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := open(t, b.cfg(t))
			_, err := d.Stores().Users.GetByID(t.Context(), 1)
			is.True(err != nil)
			is.True(!errors.Is(err, errs.ErrNotFound)) // a missing table is not a missing user

			is.NoErr(d.Migrate(t.Context()))
			u := newUser("late")
			is.NoErr(d.Stores().Users.Create(t.Context(), u))
			got, err := d.Stores().Users.GetByID(t.Context(), u.ID)
			is.NoErr(err)
			is.Equal(got.Name, "late")
			_, err = d.Stores().Users.GetByName(t.Context(), "LATE")
			is.NoErr(err)
			found, err := d.Stores().Tokens.FindByLastEight(t.Context(), "00000000")
			is.NoErr(err)
			is.Equal(len(found), 0)
		})
	}
}
