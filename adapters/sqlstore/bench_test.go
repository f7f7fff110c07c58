package sqlstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// benchUsers is large enough that a missing index would show as a scan.
const benchUsers = 2000

// benchDB is a SQLite database with benchUsers users, each with one token,
// and the ids to look them up by.
func benchDB(b *testing.B) (ports.Stores, []int64, []string) {
	b.Helper()
	d, err := sqlstore.Open(b.Context(), sqlstore.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(b.Context()); err != nil {
		b.Fatal(err)
	}
	ids := make([]int64, 0, benchUsers)
	eights := make([]string, 0, benchUsers)
	err = d.InTx(b.Context(), func(ctx context.Context, tx ports.Stores) error {
		for i := range benchUsers {
			u := newUser(fmt.Sprintf("user%d", i))
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
			le := fmt.Sprintf("%08x", i)
			tk := &token.AccessToken{
				UserID: u.ID, Name: "t", Hash: fmt.Sprintf("hash%d", i), Salt: "s", LastEight: le,
				Scopes: token.Scopes{"all"},
			}
			if err := tx.Tokens.Create(ctx, tk); err != nil {
				return err
			}
			ids = append(ids, u.ID)
			eights = append(eights, le)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return d.Stores(), ids, eights
}

func BenchmarkSQLiteGetByID(b *testing.B) {
	s, ids, _ := benchDB(b)
	ctx := b.Context()
	b.Run("serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.Users.GetByID(ctx, ids[i%len(ids)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := s.Users.GetByID(ctx, ids[i%len(ids)]); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

func BenchmarkSQLiteFindByLastEight(b *testing.B) {
	s, _, eights := benchDB(b)
	ctx := b.Context()
	b.Run("serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			got, err := s.Tokens.FindByLastEight(ctx, eights[i%len(eights)])
			if err != nil || len(got) != 1 {
				b.Fatalf("got %d tokens, err %v", len(got), err)
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := s.Tokens.FindByLastEight(ctx, eights[i%len(eights)]); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}
