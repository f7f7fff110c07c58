package test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

const metricsToken = "scrape-secret-1"

// scrapeMetrics reads /metrics with the token and parses it with
// Prometheus's own text parser.
func scrapeMetrics(t *testing.T, srv *testserver.Server) map[string]*dto.MetricFamily {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return families
}

// labelled returns the metric of family with these label values.
func labelled(f *dto.MetricFamily, labels map[string]string) *dto.Metric {
	for _, m := range f.GetMetric() {
		match := 0
		for _, l := range m.GetLabel() {
			if v, ok := labels[l.GetName()]; ok && v == l.GetValue() {
				match++
			}
		}
		if match == len(labels) {
			return m
		}
	}
	return nil
}

// TestMetricsWhileServing scrapes /metrics while requests and a clone run:
// the API's requests by route template, Git's traffic, the database pools
// and the Go runtime (the job queue's gauges: TestJobQueueStats), parsed by Prometheus's text parser.
func TestMetricsWhileServing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
	}))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "measured", AutoInit: true})

	// Load: repository reads and a clone, with scrapes in between.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				_ = srv.Do("GET", "/repos/alice/measured", nil, basicAs("alice")...)
			}
		})
	}
	wg.Go(func() { scrapeMetrics(t, srv) })
	wg.Wait()
	gitRun(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "alice", "measured", "", ""), "copy")
	_ = srv.Do("GET", "/repos/alice/absent", nil, basicAs("alice")...)

	m := scrapeMetrics(t, srv)
	requests := m["depot_http_request_duration_seconds"]
	is.True(requests != nil)
	is.Equal(requests.GetType(), dto.MetricType_HISTOGRAM)
	ok := labelled(requests, map[string]string{"route": "/repos/{owner}/{repo}", "method": "GET", "status": "200"})
	is.True(ok != nil)
	is.True(ok.GetHistogram().GetSampleCount() >= 40)
	missing := labelled(requests, map[string]string{"route": "/repos/{owner}/{repo}", "method": "GET", "status": "404"})
	is.True(missing != nil)
	is.Equal(missing.GetHistogram().GetSampleCount(), uint64(1))
	for _, f := range requests.GetMetric() { // templates only, never a request's own path
		for _, l := range f.GetLabel() {
			is.True(l.GetName() != "route" || !strings.Contains(l.GetValue(), "alice"))
		}
	}
	is.True(m["depot_http_requests_in_flight"] != nil)

	git := m["depot_git_http_request_duration_seconds"]
	is.True(git != nil)
	is.True(labelled(git, map[string]string{"service": "upload-pack", "status": "200"}) != nil)
	is.True(labelled(git, map[string]string{"service": "info-refs", "status": "200"}) != nil)
	out := labelled(m["depot_git_http_bytes_total"], map[string]string{"service": "upload-pack", "direction": "out"})
	is.True(out != nil && out.GetCounter().GetValue() > 0)

	is.True(m["go_goroutines"] != nil)
	is.True(m["process_resident_memory_bytes"] != nil)
	pools := m["go_sql_open_connections"]
	is.True(pools != nil)
	is.True(labelled(pools, map[string]string{"db_name": "write"}) != nil)
	is.True(labelled(pools, map[string]string{"db_name": "read"}) != nil)

	// Without the token, or with another: 401.
	for _, auth := range []string{"", "Bearer wrong", "token " + metricsToken} {
		req, _ := http.NewRequest("GET", srv.URL+"/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
	}
}

// TestMetricsOffByDefault checks the default: no page, 404.
func TestMetricsOffByDefault(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	resp, err := http.Get(srv.URL + "/metrics")
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusNotFound)
}
