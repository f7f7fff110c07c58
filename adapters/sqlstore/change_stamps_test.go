package sqlstore_test

import (
	"context"
	"testing"

	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// TestChangeStamps reads the change stamp around writes: a write outside a
// transaction, a committed transaction and another server's commit (on
// Postgres, a second handle) each give a new stamp, and a rolled-back
// transaction or a read does not need to (on SQLite, where nothing else
// shares the file, the stamp then stays as it was).
func TestChangeStamps(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			ctx := t.Context()
			cfg := b.cfg(t)
			d := open(t, cfg)
			is.NoErr(d.Migrate(ctx))
			stamps := d.ChangeStamps()
			stamp := func() string {
				s, err := stamps.Stamp(ctx)
				is.NoErr(err)
				is.True(s != "")
				return s
			}

			before := stamp()
			is.NoErr(d.Stores().Users.Create(ctx, newUser("outside")))
			afterOutside := stamp()
			is.True(afterOutside != before) // a write outside a transaction

			is.NoErr(d.Transactor().InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				return tx.Users.Create(ctx, newUser("inside"))
			}))
			afterTx := stamp()
			is.True(afterTx != afterOutside) // a committed transaction

			other := d
			if b.name == "postgres" {
				other = open(t, cfg) // another server on the same database
			}
			is.NoErr(other.Stores().Users.Create(ctx, newUser("elsewhere")))
			afterOther := stamp()
			is.True(afterOther != afterTx) // another server's commit

			if b.name == "sqlite" {
				_, err := d.Stores().Users.Count(ctx)
				is.NoErr(err)
				_ = d.Transactor().InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
					if err := tx.Users.Create(ctx, newUser("undone")); err != nil {
						return err
					}
					return context.Canceled // rolls back
				})
				is.Equal(stamp(), afterOther) // nothing committed since
			}
		})
	}
}
