package test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/sitearchive"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/depothq/depot/wire"
)

// BenchmarkSiteDump times `depot dump`'s work (the dumper the command
// runs, zstd-compressed to a file) on a site of 1,000 repositories, each
// with a first commit, and 100,000 issues (1,000 in each of the first 100
// repositories), seeded through the services and the issue store. The
// target is under 60 s per dump. DEPOT_BENCH_POSTGRES=1 runs it on
// Postgres.
func BenchmarkSiteDump(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	settings := site.Defaults()
	settings.BaseURL = "http://127.0.0.1:3000"
	o := wire.Options{Site: settings, DataDir: dir, Log: slog.New(slog.DiscardHandler)}
	if os.Getenv("DEPOT_BENCH_POSTGRES") != "" {
		o.DSN = testserver.CreatePostgresDB(b)
	}
	app, cleanup, err := wire.Init(ctx, o)
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	if _, err := app.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	admin, err := app.Users.Resolve(ctx, auth.Caller{}, "admin")
	if err != nil {
		b.Fatal(err)
	}
	const repoCount, issueRepos, issuesPerRepo = 1000, 100, 1000
	caller := auth.Caller{User: admin, Method: auth.MethodToken}
	for k := 0; k < repoCount; k++ {
		r, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: fmt.Sprintf("r%04d", k), AutoInit: true, Readme: "Default"})
		if err != nil {
			b.Fatal(err)
		}
		if k >= issueRepos {
			continue
		}
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for n := 0; n < issuesPerRepo; n++ {
				at := t0.Add(time.Duration(n) * time.Second)
				i := &issue.Issue{RepoID: r.ID, PosterID: admin.ID, CreatedAt: at, UpdatedAt: at,
					Title: fmt.Sprintf("Issue %d of %s", n, r.Name),
					Body:  "Steps to reproduce: open the page, press the button, watch it fail.\nExpected: it works."}
				if err := tx.Issues.Create(ctx, i); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	out := filepath.Join(b.TempDir(), "site.tar.zst")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dumper, closeDumper, err := wire.NewDumper(ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		aw, err := sitearchive.NewWriter(f, sitearchive.Zstd)
		if err != nil {
			b.Fatal(err)
		}
		m, err := dumper.Dump(ctx, aw, func(string, int, int) {})
		if err == nil {
			err = aw.Close()
		}
		if err == nil {
			err = f.Close()
		}
		closeDumper()
		if err != nil {
			b.Fatal(err)
		}
		if m.Repositories != repoCount {
			b.Fatalf("dumped %d repositories", m.Repositories)
		}
		b.ReportMetric(float64(aw.Written)/(1<<20), "MiB")
	}
}
