package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// benchUsers is large enough that a missing index would show as a scan.
const benchUsers = 2000

// benchDB is a SQLite database with benchUsers users, each with one token,
// and the ids to look them up by.
func benchDB(b *testing.B) (ports.Stores, []int64, []string) {
	b.Helper()
	d, ids, eights := benchDBHandle(b)
	return d.Stores(), ids, eights
}

// benchDBHandle is benchDB's database itself.
func benchDBHandle(b *testing.B) (*sqlstore.DB, []int64, []string) {
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
	return d, ids, eights
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

// benchRepos is as many repositories as `make bench` searches over.
const benchRepos = 10_000

// benchRepoDB is a SQLite database with benchRepos public repositories named
// bench-00000, … owned by one user (one in ten with a description, each
// updated a second after the previous), a second user who owns nothing, and
// both users' ids.
func benchRepoDB(b *testing.B) (s ports.Stores, owner, other *user.User) {
	b.Helper()
	d, err := sqlstore.Open(b.Context(), sqlstore.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(b.Context()); err != nil {
		b.Fatal(err)
	}
	owner, other = newUser("admin"), newUser("someone")
	owner.IsAdmin = true
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = d.InTx(b.Context(), func(ctx context.Context, tx ports.Stores) error {
		for _, u := range []*user.User{owner, other} {
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
		}
		for i := range benchRepos {
			name := fmt.Sprintf("bench-%05d", i)
			r := &repository.Repository{
				Owner: repository.Owner{ID: owner.ID, Name: owner.Name, Kind: owner.Kind, Visibility: owner.Visibility},
				Name:  name, LowerName: name, Empty: true, DefaultBranch: repository.DefaultBranch, ObjectFormat: "sha1",
				Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
				Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
				Created: t0.Add(time.Duration(i) * time.Second), Updated: t0.Add(time.Duration(i) * time.Second),
			}
			if i%10 == 0 {
				r.Description = fmt.Sprintf("Repository %d, seeded by the benchmark", i)
			}
			if err := tx.Repos.Create(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return d.Stores(), owner, other
}

// BenchmarkRepoGetByFullName resolves "owner/name" among 10,000 repositories,
// the lookup behind every repository route (a prepared statement outside
// transactions).
func BenchmarkRepoGetByFullName(b *testing.B) {
	s, _, _ := benchRepoDB(b)
	ctx := b.Context()
	name := func(i int) string { return fmt.Sprintf("bench-%05d", (i*7919)%benchRepos) }
	b.Run("serial", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := s.Repos.GetByFullName(ctx, "admin", name(i)); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := s.Repos.GetByFullName(ctx, "admin", name(i)); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

// BenchmarkRepoSearch is one page of 10 of a repository search over 10,000
// repositories, with its total count, as GET /repos/search asks for it:
// "keyword" matches ten names, "sorted" nearly all, ordered by last update,
// newest first. The admin sees everything; an ordinary user's search adds the
// visibility conditions (owner, collaboration or public).
func BenchmarkRepoSearch(b *testing.B) {
	s, admin, other := benchRepoDB(b)
	ctx := b.Context()
	page := ports.ListOptions{Page: 1, Limit: 10}
	viewers := []struct {
		name string
		v    ports.RepoViewer
	}{
		{"admin", ports.RepoViewer{UserID: admin.ID, IsAdmin: true}},
		{"user", ports.RepoViewer{UserID: other.ID}},
	}
	shapes := []struct {
		name  string
		q     ports.RepoSearch
		total int64
	}{
		{"keyword", ports.RepoSearch{Keyword: "bench-0042", Sort: "id"}, 10},
		{"sorted", ports.RepoSearch{Keyword: "bench", Sort: "updated", Desc: true}, benchRepos},
	}
	for _, sh := range shapes {
		for _, v := range viewers {
			q := sh.q
			q.Viewer, q.ListOptions = v.v, page
			search := func() error {
				list, total, err := s.Repos.Search(ctx, q)
				if err == nil && (total != sh.total || len(list) != 10) {
					err = fmt.Errorf("got %d of %d, want 10 of %d", len(list), total, sh.total)
				}
				return err
			}
			b.Run(sh.name+"/"+v.name+"/serial", func(b *testing.B) {
				for b.Loop() {
					if err := search(); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(sh.name+"/"+v.name+"/parallel", func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if err := search(); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
