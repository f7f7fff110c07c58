package test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

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

// TestMetricsSiteObjectsSSHAndDeliveries scrapes, on both databases, the
// site's object counts under Gitea's names and Depot's twins, Git over SSH
// (a clone and a push: their sessions, bytes and the connection gauge) and
// webhook deliveries by result.
func TestMetricsSiteObjectsSSHAndDeliveries(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			opts := []testserver.Option{testserver.WithSSH(), testserver.WithSettings(func(s *site.Settings) {
				s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
				s.AllowedHosts = "loopback"
				s.WebhookMaxAttempts = 1
			})}
			if backend == "postgres" {
				opts = append(opts, testserver.OnPostgres())
			}
			srv := testserver.Start(t, opts...)
			_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
			_, _ = newAccount(t, srv, "bob", gitea.VisibleTypePublic)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
			for _, title := range []string{"open one", "open two", "closed"} {
				i, _, err := alice.CreateIssue("alice", "repo", gitea.CreateIssueOption{Title: title})
				is.NoErr(err)
				if title == "closed" {
					closed := gitea.StateClosed
					_, _, err = alice.EditIssue("alice", "repo", i.Index, gitea.EditIssueOption{State: &closed})
					is.NoErr(err)
				}
			}
			_, err := alice.StarRepo("alice", "repo")
			is.NoErr(err)

			rec := deliveryNewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/fails" {
					w.WriteHeader(http.StatusInternalServerError)
					return
				}
				w.WriteHeader(http.StatusOK)
			})
			deliveryHook(t, alice, rec.URL+"/ok", []string{"push"})
			deliveryHook(t, alice, rec.URL+"/fails", []string{"push"})

			key, _ := sshGitUserKey(t, alice, "laptop")
			clone := sshGitClone(t, srv, key, "alice", "repo")
			httpGitCommit(t, clone, "more.txt", "more\n", "more")
			sshGitOK(t, srv, key, clone, "push", "-q", "origin", "main")
			rec.wait(t, "/ok", 1)
			rec.wait(t, "/fails", 1)

			var m map[string]*dto.MetricFamily
			deadline := time.Now().Add(10 * time.Second)
			for { // deliveries are counted as they end, connections as they close
				m = scrapeMetrics(t, srv)
				f := m["depot_webhook_delivery_duration_seconds"]
				conns := m["depot_ssh_connections"]
				if f != nil && labelled(f, map[string]string{"result": "failure"}) != nil &&
					labelled(f, map[string]string{"result": "success"}) != nil &&
					conns != nil && conns.GetMetric()[0].GetGauge().GetValue() == 0 { // both sessions ended
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no delivery counted by result")
				}
				time.Sleep(20 * time.Millisecond)
			}
			gauge := func(name string) float64 {
				f := m[name]
				if f == nil || len(f.GetMetric()) != 1 {
					t.Fatalf("%s: missing", name)
				}
				return f.GetMetric()[0].GetGauge().GetValue()
			}
			for name, want := range map[string]float64{"users": 3, "organizations": 0, "repositories": 1,
				"issues": 3, "issues_open": 2, "issues_closed": 1, "pull_requests": 0, "stars": 1, "webhooks": 2,
				"publickeys": 1, "mirrors": 0} {
				is.Equal(gauge("depot_"+name), want) // depot_<name>
				is.Equal(gauge("gitea_"+name), want) // and Gitea's name
			}

			sessions := m["depot_git_ssh_session_duration_seconds"]
			is.True(sessions != nil)
			is.True(labelled(sessions, map[string]string{"service": "upload-pack", "exit": "0"}) != nil)
			is.True(labelled(sessions, map[string]string{"service": "receive-pack", "exit": "0"}) != nil)
			out := labelled(m["depot_git_ssh_bytes_total"], map[string]string{"service": "upload-pack", "direction": "out"})
			is.True(out != nil && out.GetCounter().GetValue() > 0)
			in := labelled(m["depot_git_ssh_bytes_total"], map[string]string{"service": "receive-pack", "direction": "in"})
			is.True(in != nil && in.GetCounter().GetValue() > 0)
		})
	}
}

// metricsCaches are the in-process caches the page reports.
var metricsCaches = []string{"tokens", "passwords", "oauth2_grants", "branch_protections", "tag_protections",
	"release_pages", "activitypub_remote_keys", "markup_renderings", "gpg_key_rings", "git_commit_counts",
	"git_blobs", "git_last_commits"}

// TestMetricsStatementsAndCaches scrapes, on both databases and while
// requests run, the database's statement timings by operation and table
// (tables only the schema's, or "other") and the caches' hits and misses:
// the token and password caches answer the repeated requests.
func TestMetricsStatementsAndCaches(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := startMeasuredServer(t, backend)
			_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "measured", AutoInit: true})
			tok, _, err := alice.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "poll",
				Scopes: []gitea.AccessTokenScope{"read:repository", "read:user"}})
			is.NoErr(err)

			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() {
					for range 10 {
						_ = srv.Do("GET", "/repos/alice/measured", nil, "Authorization", "token "+tok.Token)
						_ = srv.Do("GET", "/repos/alice/measured/commits?limit=5", nil, basicAs("alice")...)
					}
				})
			}
			wg.Go(func() { scrapeMetrics(t, srv) })
			wg.Wait()

			m := scrapeMetrics(t, srv)
			stmts := m["depot_db_statement_duration_seconds"]
			is.True(stmts != nil)
			is.Equal(stmts.GetType(), dto.MetricType_HISTOGRAM)
			inserted := labelled(stmts, map[string]string{"operation": "insert", "table": "users"})
			is.True(inserted != nil && inserted.GetHistogram().GetSampleCount() >= 1) // alice
			is.True(labelled(stmts, map[string]string{"operation": "insert", "table": "repos"}) != nil)
			is.True(labelled(stmts, map[string]string{"operation": "select"}) != nil)
			ops := map[string]bool{"select": true, "insert": true, "update": true, "delete": true, "other": true}
			for _, s := range stmts.GetMetric() {
				for _, l := range s.GetLabel() {
					switch l.GetName() {
					case "operation":
						is.True(ops[l.GetValue()]) // one of the five kinds
					case "table":
						is.True(isTableLabel(l.GetValue())) // a table's name, never a statement's text
					}
				}
			}

			requests := m["depot_cache_requests_total"]
			is.True(requests != nil)
			is.Equal(requests.GetType(), dto.MetricType_COUNTER)
			count := func(cache, result string) float64 {
				s := labelled(requests, map[string]string{"cache": cache, "result": result})
				if s == nil {
					t.Fatalf("no %s %s", cache, result)
				}
				return s.GetCounter().GetValue()
			}
			for _, c := range metricsCaches {
				_ = count(c, "hit")
				_ = count(c, "miss")
			}
			is.True(count("tokens", "miss") >= 1) // the first request
			is.True(count("tokens", "hit") >= 20)
			is.True(count("passwords", "hit") >= 20)
			is.True(count("git_commit_counts", "hit") >= 1)
			entries := labelled(m["depot_cache_entries"], map[string]string{"cache": "tokens"})
			is.True(entries != nil && entries.GetGauge().GetValue() >= 1)
			is.True(labelled(m["depot_cache_evictions_total"], map[string]string{"cache": "tokens"}) != nil)
			is.True(labelled(m["depot_cache_entries"], map[string]string{"cache": "branch_protections"}) == nil) // unbounded: no size
		})
	}
}

// isTableLabel reports whether v is a plain table name.
func isTableLabel(v string) bool {
	if v == "" {
		return false
	}
	for _, c := range v {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// TestMetricsPreparedStatements scrapes the timings of the statements the
// store prepares itself, which bun's query hook does not see (on SQLite an
// issue and its comment list are read through prepared statements): each
// request shows up in the histogram of its operation and table, and the
// issue that is not there (no row) is no failed statement.
func TestMetricsPreparedStatements(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := startMeasuredServer(t, backend)
			_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "discussed"})
			issue, _, err := alice.CreateIssue("alice", "discussed", gitea.CreateIssueOption{Title: "Timed"})
			is.NoErr(err)
			for _, body := range []string{"first", "second", "third"} {
				_, _, err := alice.CreateIssueComment("alice", "discussed", issue.Index, gitea.CreateIssueCommentOption{Body: body})
				is.NoErr(err)
			}
			timed := func(m map[string]*dto.MetricFamily, op, table string) uint64 {
				s := labelled(m["depot_db_statement_duration_seconds"], map[string]string{"operation": op, "table": table})
				return s.GetHistogram().GetSampleCount()
			}

			before := scrapeMetrics(t, srv)
			const lists = 5
			for range lists {
				comments, _, err := alice.ListIssueComments("alice", "discussed", issue.Index, gitea.ListIssueCommentOptions{})
				is.NoErr(err)
				is.Equal(len(comments), 3)
			}
			is.Equal(srv.Do("GET", "/repos/alice/discussed/issues/99", nil, basicAs("alice")...).Status, http.StatusNotFound)
			after := scrapeMetrics(t, srv)

			is.True(timed(after, "select", "comments")-timed(before, "select", "comments") >= lists)
			is.True(timed(after, "select", "issues")-timed(before, "select", "issues") >= lists+1) // each list opens its issue
			failed := labelled(after["depot_db_statement_errors_total"], map[string]string{"operation": "select", "table": "issues"})
			is.True(failed == nil || failed.GetCounter().GetValue() == 0) // no row is no failure
		})
	}
}

// startMeasuredServer starts a server on backend ("sqlite" or "postgres")
// with metrics on behind metricsToken.
func startMeasuredServer(t *testing.T, backend string) *testserver.Server {
	t.Helper()
	opts := []testserver.Option{testserver.WithSettings(func(s *site.Settings) {
		s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
	})}
	if backend == "postgres" {
		opts = append(opts, testserver.OnPostgres())
	}
	return testserver.Start(t, opts...)
}
