package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestGitService(t *testing.T) {
	for path, want := range map[string]string{
		"/alice/repo.git/git-upload-pack":  "upload-pack",
		"/alice/repo.git/git-receive-pack": "receive-pack",
		"/alice/repo.git/info/refs":        "info-refs",
		"/alice/repo.git/HEAD":             "other",
	} {
		if got := gitService(httptest.NewRequest("GET", path, nil)); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}

// TestRegistryOff records and wraps nothing.
func TestRegistryOff(t *testing.T) {
	is := is.New(t)
	r, err := New(Options{})
	is.NoErr(err)
	is.True(!r.Enabled())
	q := r.Route("/version")
	is.True(q.Started().IsZero())
	q.Done(time.Time{}, "GET", 200)
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	is.Equal(r.WrapGit(h) != nil, true)
}

// TestGitTrafficCounted wraps a handler that reads the body and answers.
func TestGitTrafficCounted(t *testing.T) {
	is := is.New(t)
	r, err := New(Options{Enabled: true, Token: "t"})
	is.NoErr(err)
	h := r.WrapGit(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		_, _ = io.WriteString(w, "packfile bytes")
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/a/b.git/git-upload-pack", strings.NewReader("want x\n")))

	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Authorization", "Bearer t")
	r.ServeHTTP(rec, req)
	is.Equal(rec.Code, http.StatusOK)
	body := rec.Body.String()
	is.True(strings.Contains(body, `depot_git_http_bytes_total{direction="in",service="upload-pack"} 7`))
	is.True(strings.Contains(body, `depot_git_http_bytes_total{direction="out",service="upload-pack"} 14`))
	is.True(strings.Contains(body, `depot_git_http_request_duration_seconds_count{service="upload-pack",status="200"} 1`))
}

// TestRouteRequestsSeries records a route's requests by method and status,
// those past the series the route keeps too.
func TestRouteRequestsSeries(t *testing.T) {
	is := is.New(t)
	r, err := New(Options{Enabled: true})
	is.NoErr(err)
	q := r.Route("/repos/{owner}/{repo}")
	for range 3 {
		q.Done(q.Started(), "GET", 200)
	}
	for status := 300; status < 300+2*maxRouteSeries; status++ {
		q.Done(q.Started(), "GET", status)
	}
	q.Done(q.Started(), "HEAD", 200)
	q.Done(q.Started(), "GET", 300+2*maxRouteSeries-1)

	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	is.True(strings.Contains(body, `depot_http_request_duration_seconds_count{method="GET",route="/repos/{owner}/{repo}",status="200"} 3`))
	is.True(strings.Contains(body, `depot_http_request_duration_seconds_count{method="HEAD",route="/repos/{owner}/{repo}",status="200"} 1`))
	is.True(strings.Contains(body, `depot_http_request_duration_seconds_count{method="GET",route="/repos/{owner}/{repo}",status="300"} 1`))
	is.True(strings.Contains(body, `depot_http_request_duration_seconds_count{method="GET",route="/repos/{owner}/{repo}",status="363"} 2`))
	is.True(strings.Contains(body, "depot_http_requests_in_flight 0"))
}
