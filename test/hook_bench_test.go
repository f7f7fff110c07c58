package test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/hooks"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
)

// hookevBenchDeliveries is the backlog the drain benchmark queues: issue
// 7's "10,000 queued deliveries".
const hookevBenchDeliveries = 10_000

// hookevCounter is a loopback receiver that only counts what it gets.
type hookevCounter struct {
	*httptest.Server
	n atomic.Int64
}

func hookevNewCounter(b *testing.B) *hookevCounter {
	b.Helper()
	c := &hookevCounter{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = r.Body.Read(make([]byte, 4096))
		c.n.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	b.Cleanup(c.Close)
	return c
}

// waitFor polls until the receiver has counted n requests.
func (c *hookevCounter) waitFor(b *testing.B, n int64) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for c.n.Load() < n {
		if time.Now().After(deadline) {
			b.Fatalf("the receiver got %d of %d deliveries", c.n.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// hookevBenchServer starts a server that may deliver to loopback and
// returns it with alice's client and her repository "repo".
func hookevBenchServer(b *testing.B) (*testserver.Server, *gitea.Client, *gitea.Repository) {
	b.Helper()
	srv := testserver.Start(b, testserver.WithSettings(func(s *site.Settings) {
		s.AllowedHosts = "loopback"
		s.WebhookMaxAttempts = 3
		s.WebhookRetryDelay = 50 * time.Millisecond
	}))
	_, alice := srv.CreateUser("alice", userPassword)
	r, _, err := alice.CreateRepo(gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	if err != nil {
		b.Fatal(err)
	}
	return srv, alice, r
}

// hookevBenchHooks gives alice/repo n active hooks to url, each subscribed
// to events (nil: push).
func hookevBenchHooks(b *testing.B, alice *gitea.Client, url string, n int, events ...string) []int64 {
	b.Helper()
	ids := make([]int64, n)
	for i := range ids {
		h, _, err := alice.CreateRepoHook("alice", "repo", gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
			Events: events, Config: map[string]string{"url": url + "/" + strconv.Itoa(i), "content_type": "json",
				"secret": "bench-secret"}})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = h.ID
	}
	return ids
}

// hookevPayload is a push payload of a typical size (~2.5 KB).
var hookevPayload = []byte(`{"ref":"refs/heads/main","before":"` + strings.Repeat("a", 40) + `","after":"` +
	strings.Repeat("b", 40) + `","commits":[` + strings.TrimSuffix(strings.Repeat(`{"id":"`+strings.Repeat("c", 40)+
	`","message":"a change\n","url":"http://example.com/alice/repo/commit/x","author":{"name":"a","email":"a@example.com"},`+
	`"added":[],"removed":[],"modified":["README.md"]},`, 5), ",") + `],"repository":{"full_name":"alice/repo",` +
	`"description":"` + strings.Repeat("d", 800) + `"}}`)

// hookevEnqueue queues perHook deliveries to each hook in one transaction,
// as the dispatcher queues a push's: a delivery row and its job on the
// hook's queue.
func hookevEnqueue(b *testing.B, srv *testserver.Server, repoID int64, hookIDs []int64, perHook int, round int) {
	b.Helper()
	now := time.Now()
	err := srv.App.DB.Transactor().InTx(context.Background(), func(ctx context.Context, tx ports.Stores) error {
		for i := range perHook {
			for _, id := range hookIDs {
				del := &hook.Delivery{UUID: fmt.Sprintf("00000000-0000-4000-8000-%04d%04d%04d", round, id, i),
					HookID: id, RepoID: repoID, Event: hook.EventPush, EventType: hook.EventPush,
					Payload: hookevPayload, Created: now}
				if err := tx.HookDeliveries.Create(ctx, del); err != nil {
					return err
				}
				job, err := json.Marshal(map[string]int64{"delivery": del.ID, "hook": id, "repo_id": repoID})
				if err != nil {
					return err
				}
				if _, err := tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: hooks.DeliverKind,
					Queue: "hook:" + strconv.FormatInt(id, 10), Payload: job}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkHookDrain queues 10,000 deliveries and measures how fast the
// server's workers send them to a loopback receiver: to one hook (strictly
// one at a time, per-hook order) and spread over 10 and 100 hooks.
func BenchmarkHookDrain(b *testing.B) {
	for _, nHooks := range []int{1, 10, 100} {
		b.Run("hooks="+strconv.Itoa(nHooks), func(b *testing.B) {
			srv, alice, repo := hookevBenchServer(b)
			rec := hookevNewCounter(b)
			ids := hookevBenchHooks(b, alice, rec.URL, nHooks)
			perHook := hookevBenchDeliveries / nHooks
			var drained time.Duration
			var sent int64
			round := 0
			for range b.N {
				b.StopTimer()
				round++
				hookevEnqueue(b, srv, repo.ID, ids, perHook, round)
				start := time.Now()
				b.StartTimer()
				srv.App.Jobs.Notify()
				sent += int64(perHook * nHooks)
				rec.waitFor(b, sent)
				drained += time.Since(start)
			}
			b.ReportMetric(float64(sent)/drained.Seconds(), "deliveries/s")
		})
	}
}

// hookevSide is one side of an A/B measurement: an untimed preparation
// (nil: none) and the timed call.
type hookevSide struct {
	name    string
	prepare func(i int)
	run     func(i int)
}

// hookevAB times sides a and b alternately, b.N times each, on one server,
// so that both see the same machine (other processes' load shifts between
// separate runs far more than the difference measured), and reports each
// one's mean and b's overhead over a. settle runs untimed after each call
// (waiting for its deliveries to be sent and settled).
func hookevAB(b *testing.B, a, bb hookevSide, settle func()) {
	b.Helper()
	sums := make([]time.Duration, 2)
	b.ResetTimer()
	for i := range b.N {
		for k, side := range []hookevSide{a, bb} {
			if side.prepare != nil {
				side.prepare(i)
			}
			start := time.Now()
			side.run(i)
			sums[k] += time.Since(start)
			settle()
		}
	}
	b.StopTimer()
	ma, mb := float64(sums[0].Nanoseconds())/float64(b.N), float64(sums[1].Nanoseconds())/float64(b.N)
	b.ReportMetric(ma, "ns/"+a.name)
	b.ReportMetric(mb, "ns/"+bb.name)
	b.ReportMetric(100*(mb-ma)/ma, "%overhead")
}

// BenchmarkHookPush measures a push over smart HTTP (one new commit on
// main) to a repository without hooks and to one with five active push
// hooks, whose deliveries are queued in the push's transaction.
func BenchmarkHookPush(b *testing.B) {
	srv, alice, _ := hookevBenchServer(b)
	_, bob := srv.CreateUser("bob", userPassword)
	if _, _, err := bob.CreateRepo(gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"}); err != nil {
		b.Fatal(err)
	}
	rec := hookevNewCounter(b)
	hookevBenchHooks(b, alice, rec.URL, 5)
	side := func(owner string) hookevSide {
		work := filepath.Join(b.TempDir(), "work")
		hookevGit(b, b.TempDir(), "clone", "-q", httpGitURL(srv, owner, "repo", owner, userPassword), work)
		return hookevSide{
			name: "push-" + owner,
			prepare: func(i int) {
				if err := os.WriteFile(filepath.Join(work, "f.txt"), []byte(strconv.Itoa(i)), 0o644); err != nil {
					b.Fatal(err)
				}
				hookevGit(b, work, "add", "f.txt")
				hookevGit(b, work, "commit", "-q", "-m", "change "+strconv.Itoa(i))
			},
			run: func(int) { hookevGit(b, work, "push", "-q", "origin", "main") },
		}
	}
	hookevAB(b, side("bob"), side("alice"), hookevQueueIdle(b, srv))
	rec.waitFor(b, int64(5*b.N))
}

// BenchmarkHookCreateRepo measures POST /user/repos by an account without
// hooks and by one with five active user hooks subscribed to repository
// events, whose deliveries are queued in the creation's transaction.
func BenchmarkHookCreateRepo(b *testing.B) {
	srv, alice, _ := hookevBenchServer(b)
	_, bob := srv.CreateUser("bob", userPassword)
	rec := hookevNewCounter(b)
	for i := range 5 {
		_, _, err := alice.CreateMyHook(gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
			Events: []string{"repository"}, Config: map[string]string{"url": rec.URL + "/" + strconv.Itoa(i),
				"content_type": "json"}})
		if err != nil {
			b.Fatal(err)
		}
	}
	idle := hookevQueueIdle(b, srv)
	create := func(name string, c *gitea.Client) hookevSide {
		return hookevSide{name: name, run: func(i int) {
			if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "r" + strconv.Itoa(i)}); err != nil {
				b.Fatal(err)
			}
		}}
	}
	hookevAB(b, create("create-0hooks", bob), create("create-5hooks", alice), idle)
	rec.waitFor(b, int64(5*b.N))
}

// hookevQueueIdle returns a wait for the server's job queue to be empty:
// every delivery recorded and its job settled, so that no write of theirs
// is left to compete with what is measured next. It reads the SQLite file
// on a connection of its own.
func hookevQueueIdle(b *testing.B, srv *testserver.Server) func() {
	b.Helper()
	db, err := sql.Open("sqlite", filepath.Join(srv.DataDir, sqlstore.SQLiteFile)+"?_pragma=query_only(1)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return func() {
		deadline := time.Now().Add(time.Minute)
		for {
			var n int
			if err := db.QueryRow("SELECT COUNT(*) FROM jobs WHERE state <> 'failed' AND kind <> 'cron.run'").Scan(&n); err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				return
			}
			if time.Now().After(deadline) {
				b.Fatalf("%d jobs still queued", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// hookevGit runs git in dir and fails the benchmark when it fails.
func hookevGit(b *testing.B, dir string, args ...string) {
	b.Helper()
	if out, err := httpGitCmd(dir, args...); err != nil {
		b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
