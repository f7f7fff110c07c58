package http_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

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
// GET /repos/{owner}/{repo}: "bare" answers with both off, "metrics+etag"
// with both on (the ETag computed, no If-None-Match), so the difference
// is what they cost a 200 (the issue wants under 5%).
func BenchmarkGetRepoMetricsETag(b *testing.B) {
	const path = "/api/v1/repos/admin/init-0001"
	bare, hb := benchRepoApp(b, false)
	httpadapter.DisableConditionalRequests(bare.app.HTTP)
	on, ho := benchRepoApp(b, true)
	b.Run("bare", func(b *testing.B) { benchSerial(b, bare.app.HTTP, path, hb, http.StatusOK) })
	b.Run("metrics+etag", func(b *testing.B) { benchSerial(b, on.app.HTTP, path, ho, http.StatusOK) })
}

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
