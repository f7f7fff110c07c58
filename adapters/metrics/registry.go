// Package metrics serves /metrics in the Prometheus exposition format with
// the official client library: the API's requests by route template,
// method and status, requests in flight, Git traffic over HTTP and SSH,
// SSH connections, webhook deliveries, the database pools and statements,
// the in-process caches' hits and misses, the job queue,
// the site's object counts (Gitea's gauges) and the Go runtime.
package metrics

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/depothq/depot/ports"
)

// Options configure the metrics page (Gitea's [metrics] ENABLED and TOKEN).
type Options struct {
	Enabled bool
	// Token, when set, is the Bearer token a scrape must send.
	Token string
	// Pools are the database's connection pools by name.
	Pools map[string]*sql.DB
	// Jobs reports the job queue's depth.
	Jobs ports.JobQueueStats
	// Objects counts the site's objects (users, repositories, issues…).
	Objects ports.SiteObjectCounter
	Log     *slog.Logger
}

// Registry holds Depot's metrics. With metrics off it records nothing and
// serves nothing, and costs a branch per request.
type Registry struct {
	enabled bool
	token   string
	reg     *prometheus.Registry
	handler http.Handler

	requests *prometheus.HistogramVec
	inFlight prometheus.Gauge
	git      *prometheus.HistogramVec
	gitBytes *prometheus.CounterVec

	gitSSH      *prometheus.HistogramVec
	gitSSHBytes *prometheus.CounterVec
	sshConns    prometheus.Gauge
	deliveries  *prometheus.HistogramVec
	statements  *statementMetrics
	caches      *cacheCollector
}

var _ ports.RequestMetrics = (*Registry)(nil)

// New builds the registry and registers every collector.
func New(o Options) (*Registry, error) {
	r := &Registry{enabled: o.Enabled, token: o.Token}
	if !o.Enabled {
		return r, nil
	}
	r.reg = prometheus.NewRegistry()
	r.requests = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "depot_http_request_duration_seconds",
		Help:    "Time to answer an API request, by route template, method and status.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method", "status"})
	r.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "depot_http_requests_in_flight", Help: "API requests being answered now."})
	r.git = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "depot_git_http_request_duration_seconds",
		Help:    "Time of Git's smart HTTP requests, by service (upload-pack: clones and fetches, receive-pack: pushes, info-refs: ref advertisements) and status.",
		Buckets: prometheus.ExponentialBuckets(0.005, 4, 9),
	}, []string{"service", "status"})
	r.gitBytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "depot_git_http_bytes_total", Help: "Bytes of Git's smart HTTP traffic, by service and direction (in: from clients, out: to them)."},
		[]string{"service", "direction"})
	r.gitSSH = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "depot_git_ssh_session_duration_seconds",
		Help:    "Time of Git commands over SSH, by service (upload-pack: clones and fetches, receive-pack: pushes) and exit status.",
		Buckets: prometheus.ExponentialBuckets(0.005, 4, 9),
	}, []string{"service", "exit"})
	r.gitSSHBytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "depot_git_ssh_bytes_total", Help: "Bytes of Git's traffic over SSH, by service and direction (in: from clients, out: to them)."},
		[]string{"service", "direction"})
	r.sshConns = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "depot_ssh_connections", Help: "SSH connections open now."})
	r.deliveries = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "depot_webhook_delivery_duration_seconds",
		Help:    "Time of webhook delivery attempts, by result (success: a 2xx answer, failure: another answer, error: no answer); its _count is the attempts.",
		Buckets: prometheus.ExponentialBuckets(0.005, 4, 8),
	}, []string{"result"})
	r.statements = newStatementMetrics()
	r.caches = &cacheCollector{}
	cs := []prometheus.Collector{r.requests, r.inFlight, r.git, r.gitBytes, r.gitSSH, r.gitSSHBytes, r.sshConns, r.deliveries,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		jobQueueCollector{jobs: o.Jobs, log: o.Log}, r.caches}
	cs = append(cs, r.statements.collectors()...)
	if o.Objects != nil {
		cs = append(cs, newSiteObjectsCollector(o.Objects, o.Log))
	}
	for name, db := range o.Pools {
		cs = append(cs, collectors.NewDBStatsCollector(db, name))
	}
	for _, c := range cs {
		if err := r.reg.Register(c); err != nil {
			return nil, err
		}
	}
	r.handler = promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{ErrorLog: slogErrors{o.Log}})
	return r, nil
}

// Enabled reports whether metrics are on.
func (r *Registry) Enabled() bool { return r.enabled }

// Route is the recorder of one route's requests (ports.RequestMetrics);
// with metrics off it records nothing and reads no clock.
func (r *Registry) Route(route string) ports.RouteMetrics {
	if !r.enabled {
		return routeOff{}
	}
	return &routeRequests{requests: r.requests, inFlight: r.inFlight, route: route}
}

// ServeHTTP serves the metrics page to a scrape that names the token.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if r.token != "" {
		got, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(r.token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "a metrics token is required", http.StatusUnauthorized)
			return
		}
	}
	r.handler.ServeHTTP(w, req)
}

// jobQueueCollector reads the job queue at each scrape.
type jobQueueCollector struct {
	jobs ports.JobQueueStats
	log  *slog.Logger
}

var (
	jobsDesc = prometheus.NewDesc("depot_jobs", "Jobs in the queue, by kind and state (pending, running, failed).",
		[]string{"kind", "state"}, nil)
	jobsAgeDesc = prometheus.NewDesc("depot_jobs_oldest_age_seconds",
		"Age of the oldest job of a kind in a state.", []string{"kind", "state"}, nil)
)

func (c jobQueueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- jobsDesc; ch <- jobsAgeDesc }

func (c jobQueueCollector) Collect(ch chan<- prometheus.Metric) {
	if c.jobs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stats, err := c.jobs.JobQueueStats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(jobsDesc, err)
		return
	}
	now := time.Now()
	for _, s := range stats {
		ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(s.Count), s.Kind, s.State)
		if !s.Oldest.IsZero() {
			ch <- prometheus.MustNewConstMetric(jobsAgeDesc, prometheus.GaugeValue,
				max(0, now.Sub(s.Oldest).Seconds()), s.Kind, s.State)
		}
	}
}

// slogErrors logs the handler's errors.
type slogErrors struct{ log *slog.Logger }

func (l slogErrors) Println(v ...any) {
	if l.log != nil {
		l.log.Error("metrics", "err", v)
	}
}
