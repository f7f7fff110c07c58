package transport

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// pushingGit is a repository whose objects always need a git gc, and in
// which a push lands while each gc runs (during, called from inside it).
type pushingGit struct {
	ports.GitStorage
	gcs    int
	during func()
}

func (g *pushingGit) ObjectStore(context.Context, ports.RepoPath) (repository.ObjectStore, error) {
	return repository.ObjectStore{Packs: 2, LargestPackBytes: 1 << 20, OtherPackBytes: 1 << 20}, nil
}

func (g *pushingGit) CollectGarbage(context.Context, ports.RepoPath) error {
	g.gcs++
	g.during()
	return nil
}

func (g *pushingGit) RollUp(context.Context, ports.RepoPath) error { return nil }

func (g *pushingGit) Size(context.Context, ports.RepoPath) (int64, error) { return 1 << 20, nil }

// TestHousekeepingPushDuringARun checks that a push landing while its
// repository's housekeeping runs queues the next run, after this one: the
// running gc may have listed the packs before the push wrote its own.
// Before the run starts, pushes share one run.
func TestHousekeepingPushDuringARun(t *testing.T) {
	is := is.New(t)
	ctx := t.Context()
	db, err := sqlstore.Open(ctx, sqlstore.Config{DataDir: t.TempDir()})
	is.NoErr(err)
	t.Cleanup(func() { _ = db.Close() })
	is.NoErr(db.Migrate(ctx))
	stores := db.Stores()
	u := &user.User{Name: "owner", LowerName: "owner", Visibility: user.VisibilityPublic, IsActive: true}
	is.NoErr(stores.Users.Create(ctx, u))
	r := &repository.Repository{Owner: repository.Owner{ID: u.ID, Name: u.Name}, Name: "app", LowerName: "app",
		DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits()}
	is.NoErr(stores.Repos.Create(ctx, r))
	// A minute ahead of the wall clock, which stamps the jobs' creation.
	clock := &usecasekit.Clock{At: time.Now().UTC().Add(time.Minute).Truncate(time.Second)}
	git := &pushingGit{}
	h := &Housekeeping{stores: stores, git: git, storage: git, clock: clock, delay: 10 * time.Second,
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	claim := func() []*ports.Job {
		jobs, err := stores.Jobs.Claim(ctx, "test", []string{KindHousekeeping}, clock.At, time.Hour, 10)
		is.NoErr(err)
		return jobs
	}

	// Three pushes before the run: one job.
	for range 3 {
		is.NoErr(h.recordPush(ctx, stores, r, u.ID, nil))
	}
	clock.At = clock.At.Add(10 * time.Second)
	first := claim()
	is.Equal(len(first), 1)
	is.Equal(len(claim()), 0)

	// Two pushes while it runs: one more job, which waits for this one.
	pushes := 0
	git.during = func() {
		for range 2 {
			is.NoErr(h.recordPush(ctx, stores, r, u.ID, nil))
			pushes++
		}
		clock.At = clock.At.Add(10 * time.Second)
		is.Equal(len(claim()), 0) // not beside the running one
	}
	is.NoErr(h.runHousekeeping(ctx, first[0]))
	is.Equal(pushes, 2)
	is.Equal(git.gcs, 1)
	is.NoErr(stores.Jobs.Complete(ctx, first[0].ID, "test"))

	next := claim()
	is.Equal(len(next), 1) // the pushes during the run are tidied after it
	is.True(next[0].ID != first[0].ID)
	git.during = func() {}
	is.NoErr(h.runHousekeeping(ctx, next[0]))
	is.NoErr(stores.Jobs.Complete(ctx, next[0].ID, "test"))
	clock.At = clock.At.Add(time.Hour)
	is.Equal(len(claim()), 0) // and nothing more
	is.Equal(git.gcs, 2)
}
