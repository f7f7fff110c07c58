package actions

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun/driver/pgdriver"
)

// BenchmarkActionsPushSchedules20Workflows is the scheduling work one push
// to a branch of a repository with 20 workflows (`on: push`, 1–2 jobs
// each) triggers, on a real database and a real bare repository: the push
// hook's part (recordPush inside the push's transaction, which queues the
// job) and the job's (runPushRuns: reading and parsing the workflows,
// creating the 20 runs and their jobs and posting the jobs' commit
// statuses). Goal: under 50 ms a push. It runs on SQLite, and on Postgres
// when DEPOT_TEST_POSTGRES_DSN is set; cpu-ms/op is the process's CPU time
// per push, which a loaded machine distorts less than the wall clock.
func BenchmarkActionsPushSchedules20Workflows(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		benchPushSchedules(b, sqlstore.Config{DataDir: b.TempDir()})
	})
	if dsn := os.Getenv("DEPOT_TEST_POSTGRES_DSN"); dsn != "" {
		b.Run("postgres", func(b *testing.B) {
			benchPushSchedules(b, sqlstore.Config{DSN: benchPostgresDatabase(b, dsn)})
		})
	}
}

func benchPushSchedules(b *testing.B, cfg sqlstore.Config) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	stores := db.Stores()
	u := &user.User{Name: "owner", LowerName: "owner", Email: "owner@example.com", Visibility: user.VisibilityPublic, IsActive: true}
	if err := stores.Users.Create(ctx, u); err != nil {
		b.Fatal(err)
	}
	r := &repository.Repository{Owner: repository.Owner{ID: u.ID, Name: u.Name}, Name: "ci", LowerName: "ci",
		DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits()}
	if err := stores.Repos.Create(ctx, r); err != nil {
		b.Fatal(err)
	}
	git, err := libgit2.New(b.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(git.Close)
	p := repoPath(r)
	if err := git.Init(ctx, p, "main"); err != nil {
		b.Fatal(err)
	}
	sig := ports.GitSignature{Name: "owner", Email: "owner@example.com", When: time.Now()}
	files := []ports.GitFile{{Path: "README.md", Content: []byte("# ci\n")}}
	for i := range 20 {
		yml := fmt.Sprintf("name: wf%02d\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo build %d\n", i, i)
		if i%2 == 1 {
			yml += "  test:\n    needs: build\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo test\n"
		}
		files = append(files, ports.GitFile{Path: fmt.Sprintf(".gitea/workflows/wf%02d.yml", i), Content: []byte(yml)})
	}
	head, err := git.CommitFiles(ctx, p, ports.GitCommit{Branch: "main", Message: "workflows\n\nall twenty",
		Author: sig, Committer: sig, Files: files})
	if err != nil {
		b.Fatal(err)
	}
	r.Empty = false
	s := NewService(stores, db.Transactor(), nil, security.SystemClock{}, git, nil, nil, Kit{BaseURL: "http://127.0.0.1:3000/"})
	changes := []repository.RefChange{{OldID: strings.Repeat("0", 40), NewID: head, Ref: "refs/heads/main"}}

	push := func() {
		var job *ports.Job
		err := db.Transactor().InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := s.recordPush(ctx, tx, r, u.ID, changes); err != nil {
				return err
			}
			// The job recordPush queued (no workflow is disabled).
			payload, err := json.Marshal(pushRunsPayload{RepoID: r.ID, PusherID: u.ID, Changes: changes})
			job = &ports.Job{Kind: KindPushRuns, Payload: payload}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.runPushRuns(ctx, job); err != nil {
			b.Fatal(err)
		}
	}
	push() // the first push checks the result
	runs, total, err := stores.ActionRuns.ListRuns(ctx, r.ID, ports.ListOptions{Page: 1, Limit: 50})
	if err != nil || total != 20 || len(runs) != 20 {
		b.Fatalf("runs after one push: %d (%v)", total, err)
	}
	cpu0 := benchCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		push()
	}
	b.StopTimer()
	b.ReportMetric(float64((benchCPU(b)-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// benchCPU is the CPU time the process has used so far, user and system.
func benchCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchPostgresDatabase creates an empty database on dsn's server for the
// benchmark and drops it afterwards.
func benchPostgresDatabase(b *testing.B, dsn string) string {
	b.Helper()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	b.Cleanup(func() { _ = admin.Close() })
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	name := "depot_bench_" + hex.EncodeToString(id)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	u, err := url.Parse(dsn)
	if err != nil {
		b.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
