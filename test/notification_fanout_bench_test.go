package test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
)

// fanoutBenchWatchers is how many users watch the repository of the
// fan-out benchmark: each issue opened writes that many threads.
const fanoutBenchWatchers = 20_000

// BenchmarkNotificationFanout measures the fan-out of an issue opened in a
// repository with fanoutBenchWatchers watchers on SQLite, from the
// request's answer (which never waits for it) to the last thread written,
// and reports threads/s (the target: at least 20,000).
func BenchmarkNotificationFanout(b *testing.B) {
	srv := testserver.Start(b)
	no := false
	if _, _, err := srv.AdminClient().AdminCreateUser(gitea.CreateUserOption{Username: "fanowner",
		Email: "fanowner@example.com", Password: userPassword, MustChangePassword: &no}); err != nil {
		b.Fatal(err)
	}
	owner := userClient(srv, "fanowner")
	if _, _, err := owner.CreateRepo(gitea.CreateRepoOption{Name: "busy"}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	stores := srv.App.DB.Stores()
	repo, err := stores.Repos.GetByFullName(ctx, "fanowner", "busy")
	if err != nil {
		b.Fatal(err)
	}
	if err := srv.App.DB.Transactor().InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for i := range fanoutBenchWatchers {
			name := "fan" + strconv.Itoa(i)
			if err := tx.Users.Create(ctx, &user.User{Name: name, LowerName: name, Email: name + "@example.com",
				Visibility: user.VisibilityPublic, IsActive: true}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	// The watches go in with one statement: the store's Watch recounts the
	// watchers each time, which is not what is measured here.
	db, err := sql.Open("sqlite", filepath.Join(srv.DataDir, sqlstore.SQLiteFile)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec("INSERT INTO watches (user_id, repo_id, mode) SELECT id, ?, 1 FROM users WHERE lower_name LIKE 'fan%' AND id <> ?",
		repo.ID, repo.Owner.ID); err != nil {
		b.Fatal(err)
	}
	count := func(issueID int64) int {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM notifications WHERE issue_id = ?", issueID).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	pending := func() int {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM jobs WHERE kind = 'notification.fanout'").Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	b.ResetTimer()
	var spent time.Duration
	for i := range b.N {
		iss, _, err := owner.CreateIssue("fanowner", "busy", gitea.CreateIssueOption{Title: "busy " + strconv.Itoa(i)})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		srv.App.Jobs.Notify()
		stored, err := stores.Issues.GetByIndex(ctx, repo.ID, iss.Index)
		if err != nil {
			b.Fatal(err)
		}
		// The queue is looked at, not the threads, so that the wait does
		// not compete with the fan-out for the database.
		deadline := start.Add(2 * time.Minute)
		for pending() > 0 {
			if time.Now().After(deadline) {
				b.Fatal("the fan-out did not finish")
			}
			time.Sleep(time.Millisecond)
		}
		spent += time.Since(start)
		if n := count(stored.ID); n != fanoutBenchWatchers {
			b.Fatalf("%d of %d threads written", n, fanoutBenchWatchers)
		}
	}
	b.ReportMetric(float64(fanoutBenchWatchers*b.N)/spent.Seconds(), "threads/s")
}
