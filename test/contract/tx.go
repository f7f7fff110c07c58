package contract

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var errBoom = errors.New("boom")

var txTests = map[string]func(t *testing.T, f *fixture){
	"CommitsWhenFnReturnsNil": func(t *testing.T, f *fixture) {
		is := is.New(t)
		var id int64
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			u := newUser("committed")
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
			id = u.ID
			tk := newTokenFor(u.ID)
			if err := tx.Tokens.Create(ctx, tk); err != nil {
				return err
			}
			return tx.Emails.Add(ctx, newEmailFor(u.ID, "committed@example.com"))
		})
		is.NoErr(err)
		got, err := f.Users.GetByName(f.ctx, "committed")
		is.NoErr(err)
		is.Equal(got.ID, id)
		_, err = f.Emails.GetByEmail(f.ctx, "committed@example.com")
		is.NoErr(err)
	},
	"RollsBackWhenFnFails": func(t *testing.T, f *fixture) {
		is := is.New(t)
		kept := f.user("kept")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.Users.Create(ctx, newUser("doomed")); err != nil {
				return err
			}
			if err := tx.Users.Delete(ctx, kept.ID); err != nil {
				return err
			}
			return errBoom
		})
		is.True(errors.Is(err, errBoom)) // fn's error comes back unchanged
		_, err = f.Users.GetByName(f.ctx, "doomed")
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
		_, err = f.Users.GetByID(f.ctx, kept.ID)
		is.NoErr(err) // the delete was undone too
	},
	"SeesItsOwnWrites": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			u := newUser("fresh")
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
			got, err := tx.Users.GetByName(ctx, "FRESH")
			if err != nil {
				return err
			}
			is.Equal(got.ID, u.ID)
			n, err := tx.Users.Count(ctx)
			is.NoErr(err)
			is.Equal(n, int64(1))
			return nil
		})
		is.NoErr(err)
	},
	"StoreErrorsKeepTheirCategory": func(t *testing.T, f *fixture) {
		is := is.New(t)
		f.user("taken")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			return tx.Users.Create(ctx, newUser("Taken"))
		})
		isCategory(is, err, errs.ErrConflict, "user already exists")
		err = f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			_, err := tx.Users.GetByID(ctx, 424242)
			return err
		})
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
	},
	"NestedJoinsTheOuterTransaction": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.Users.Create(ctx, newUser("outer")); err != nil {
				return err
			}
			err := f.tx.InTx(ctx, func(ctx context.Context, inner ports.Stores) error {
				if _, err := inner.Users.GetByName(ctx, "outer"); err != nil {
					return err // the inner sees the outer's uncommitted write
				}
				return inner.Users.Create(ctx, newUser("inner"))
			})
			if err != nil {
				return err
			}
			return errBoom
		})
		is.True(errors.Is(err, errBoom))
		for _, name := range []string{"outer", "inner"} {
			_, err := f.Users.GetByName(f.ctx, name)
			is.True(errors.Is(err, errs.ErrNotFound)) // the outer failure undid the inner work too
		}

		err = f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			return f.tx.InTx(ctx, func(ctx context.Context, inner ports.Stores) error {
				return inner.Users.Create(ctx, newUser("both"))
			})
		})
		is.NoErr(err)
		_, err = f.Users.GetByName(f.ctx, "both")
		is.NoErr(err) // committed with the outer
	},
}
