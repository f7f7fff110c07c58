package memstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/contract"
)

// TestStoreContract runs the contract suite's groups the fake implements.
func TestStoreContract(t *testing.T) {
	contract.RunStoreGroups(t, func(t *testing.T) (ports.Stores, ports.Transactor) {
		db := memstore.New()
		return db.Stores(), db
	}, memstore.Groups...)
}

// A failed nested transaction undoes its own writes only, as a savepoint.
func TestNestedTransactionFailureUndoesOnlyItsWrites(t *testing.T) {
	db := memstore.New()
	ctx := t.Context()
	boom := errors.New("boom")
	err := db.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Users.Create(ctx, &user.User{Name: "kept"}); err != nil {
			return err
		}
		inner := db.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.Users.Create(ctx, &user.User{Name: "undone"}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(inner, boom) {
			t.Errorf("inner error = %v, want boom", inner)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st := db.Stores()
	if _, err := st.Users.GetByName(ctx, "kept"); err != nil {
		t.Errorf("outer write lost: %v", err)
	}
	if _, err := st.Users.GetByName(ctx, "undone"); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("inner write kept: %v", err)
	}
}
