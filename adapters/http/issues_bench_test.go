package http_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// benchIssueWords is the vocabulary of the seeded issues: each title and
// body draws words from it, so a search for one word matches about
// 3·n/len issues, as a real keyword matches a small share of a tracker.
const benchIssueWords = 1000

func benchIssueWord(k int) string { return fmt.Sprintf("word%04d", k%benchIssueWords) }

// seedIssues makes repository name of the administrator's and inserts n
// issues into it through the issue store, 5,000 per transaction (rows,
// counters and search index as the store writes them), one in four closed.
func seedIssues(b *testing.B, a benchApp, name string, n int) *repository.Repository {
	b.Helper()
	ctx := context.Background()
	r, err := a.app.Repos.Create(ctx, auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin, repos.CreateInput{Name: name})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const batch = 5000
	for start := 0; start < n; start += batch {
		err := a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for k := start; k < min(n, start+batch); k++ {
				at := t0.Add(time.Duration(k) * time.Second)
				i := &issue.Issue{RepoID: r.ID, PosterID: a.admin.ID, CreatedAt: at, UpdatedAt: at,
					Title: fmt.Sprintf("Issue %d about %s", k, benchIssueWord(k*7)),
					Body:  fmt.Sprintf("Steps: open %s, then %s and %s.", benchIssueWord(k*13), benchIssueWord(k*31), benchIssueWord(k)),
				}
				if k%4 == 0 {
					i.SetState(issue.StateClosed, at)
				}
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
	return r
}

// benchLatency sends GET path to the handler from every P and reports,
// besides ns/op (the throughput's inverse), the median and 99th percentile
// latency and the requests per second achieved.
func benchLatency(b *testing.B, h http.Handler, path string, header http.Header) {
	b.Helper()
	var mu sync.Mutex
	var all []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			for k, v := range header {
				req.Header[k] = v
			}
			rec := httptest.NewRecorder()
			t := time.Now()
			h.ServeHTTP(rec, req)
			mine = append(mine, time.Since(t))
			if rec.Code != http.StatusOK {
				b.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
				return
			}
		}
		mu.Lock()
		all = append(all, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	reportLatency(b, all, elapsed)
}

func reportLatency(b *testing.B, all []time.Duration, elapsed time.Duration) {
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
}

// BenchmarkIssueList is GET R/issues?limit=50 (open issues and pulls,
// newest first, with X-Total-Count) on repositories of 1,000 and 100,000
// issues: the page reads the listing index in order and the total comes
// from the repository's counters, so the cost must not grow with the
// tracker. Then a full-text search (?q=) and a search with a state filter
// on the large one.
func BenchmarkIssueList(b *testing.B) {
	a := newBenchApp(b)
	seedIssues(b, a, "issues-1k", 1_000)
	seedIssues(b, a, "issues-100k", 100_000)
	for _, name := range []string{"issues-1k", "issues-100k"} {
		b.Run(strings.TrimPrefix(name, "issues-"), func(b *testing.B) {
			benchLatency(b, a.app.HTTP, "/api/v1/repos/admin/"+name+"/issues?limit=50", nil)
		})
	}
	b.Run("search-100k", func(b *testing.B) {
		benchLatency(b, a.app.HTTP, "/api/v1/repos/admin/issues-100k/issues?limit=50&q="+benchIssueWord(42), nil)
	})
	b.Run("search-all-states-100k", func(b *testing.B) {
		benchLatency(b, a.app.HTTP, "/api/v1/repos/admin/issues-100k/issues?limit=50&state=all&q="+benchIssueWord(7)+"+steps", nil)
	})
	b.Run("cross-repo-search", func(b *testing.B) {
		benchLatency(b, a.app.HTTP, "/api/v1/repos/issues/search?limit=50&q="+benchIssueWord(42), nil)
	})
}

// benchCreateSeed is how many issues the repository of BenchmarkIssueCreate holds.
var benchCreateSeed = 10_000

// BenchmarkIssueCreate is POST R/issues, one after another, into a
// repository that already holds benchCreateSeed issues (no step of a
// creation reads more than one row of them): index allocation, the row,
// its counters and search index, the "opened" event, the commit (SQLite
// synchronous=FULL) and the answer.
func BenchmarkIssueCreate(b *testing.B) {
	a := newBenchApp(b)
	seedIssues(b, a, "issues-100k", benchCreateSeed)
	_, secret, err := a.app.Users.Tokens().Create(context.Background(), a.admin.ID, "bench-issues",
		[]string{"write:issue", "read:repository"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	all := make([]time.Duration, 0, b.N)
	for k := 0; k < b.N; k++ {
		body := fmt.Sprintf(`{"title":"Created %d","body":"about %s"}`, k, benchIssueWord(k))
		req := httptest.NewRequest(http.MethodPost, "/api/v1/repos/admin/issues-100k/issues", strings.NewReader(body))
		req.Header.Set("Authorization", "token "+secret)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		t := time.Now()
		a.app.HTTP.ServeHTTP(rec, req)
		all = append(all, time.Since(t))
		if rec.Code != http.StatusCreated {
			b.Fatalf("POST: %d %s", rec.Code, rec.Body)
		}
	}
	reportLatency(b, all, time.Since(start))
}
