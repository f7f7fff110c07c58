package http_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	httpadapter "github.com/depothq/depot/adapters/http"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/site"
)

// benchRepoApp is a bench app with metrics on or off and the repository
// BenchmarkGetRepoToken reads, with the header of a token that may read it.
func benchRepoApp(b *testing.B, metrics bool) (benchApp, http.Header) {
	b.Helper()
	a := newBenchAppWith(b, func(s *site.Settings) { s.Metrics.Enabled = metrics })
	h := a.repoToken(b)
	_, err := a.app.Repos.Create(context.Background(), auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
		repos.CreateInput{Name: "init-0001", AutoInit: true, License: "MIT", Gitignores: "Go"})
	if err != nil {
		b.Fatal(err)
	}
	return a, h
}

// benchSerial sends GET path to h b.N times from one goroutine and wants
// status. Besides ns/op (wall time, which other processes on a loaded
// machine stretch) it reports cpu-ns/op, the process's CPU time per answer
// (getrusage), which is what the comparisons weigh.
func benchSerial(b *testing.B, h http.Handler, path string, header http.Header, status int) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU(b)
	defer func() { b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for k, v := range header {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != status {
			b.Fatalf("GET %s: %d, want %d: %s", path, rec.Code, status, rec.Body)
		}
	}
}

// BenchmarkGetRepoMetricsETag weighs metrics and conditional requests on
// GET /repos/{owner}/{repo}: one server answers with both off ("bare"), the
// other with both on (the ETag computed, no If-None-Match), and the
// difference is what they cost a 200 (the issue wants under 5%). The two
// take turns in rounds of benchRound requests, the first of each round
// alternating, so that whatever else the machine does weighs on both alike;
// each iteration is one request to each. It reports the process's CPU per
// answer of each (bare-cpu-ns/op, on-cpu-ns/op) and the difference
// (overhead-%).
func BenchmarkGetRepoMetricsETag(b *testing.B) {
	const path = "/api/v1/repos/admin/init-0001"
	bare, hb := benchRepoApp(b, false)
	httpadapter.DisableConditionalRequests(bare.app.HTTP)
	on, ho := benchRepoApp(b, true)
	get := func(h http.Handler, header http.Header) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for k, v := range header {
			req.Header[k] = v
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d: %s", path, rec.Code, rec.Body)
		}
	}
	turn := func(h http.Handler, header http.Header, n int) time.Duration {
		c0 := processCPU(b)
		for range n {
			get(h, header)
		}
		return processCPU(b) - c0
	}
	b.ReportAllocs()
	b.ResetTimer()
	var cpuBare, cpuOn time.Duration
	for i, round := 0, 0; i < b.N; i, round = i+benchRound, round+1 {
		n := min(benchRound, b.N-i)
		if round%2 == 0 {
			cpuBare += turn(bare.app.HTTP, hb, n)
			cpuOn += turn(on.app.HTTP, ho, n)
		} else {
			cpuOn += turn(on.app.HTTP, ho, n)
			cpuBare += turn(bare.app.HTTP, hb, n)
		}
	}
	b.ReportMetric(float64(cpuBare)/float64(b.N), "bare-cpu-ns/op")
	b.ReportMetric(float64(cpuOn)/float64(b.N), "on-cpu-ns/op")
	b.ReportMetric(100*(float64(cpuOn)/float64(cpuBare)-1), "overhead-%")
}

// benchRound is how many requests one side of an interleaved benchmark
// sends before the other takes its turn.
const benchRound = 50

// BenchmarkGetRepoNotModified compares the 200 of GET /repos/{owner}/{repo}
// with the 304 that replaces it when If-None-Match names its ETag (the
// issue wants the 304 under half the 200's CPU).
func BenchmarkGetRepoNotModified(b *testing.B) {
	const path = "/api/v1/repos/admin/init-0001"
	a, h := benchRepoApp(b, true)
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range h {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	a.app.HTTP.ServeHTTP(rec, req)
	etag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || etag == "" {
		b.Fatalf("GET %s: %d, ETag %q", path, rec.Code, etag)
	}
	cond := http.Header{"If-None-Match": {etag}}
	for k, v := range h {
		cond[k] = v
	}
	b.Run("200", func(b *testing.B) { benchSerial(b, a.app.HTTP, path, h, http.StatusOK) })
	b.Run("304", func(b *testing.B) { benchSerial(b, a.app.HTTP, path, cond, http.StatusNotModified) })
}
