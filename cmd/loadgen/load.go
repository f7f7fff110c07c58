package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// LoadConfig is one closed-loop run: Connections workers each send a request,
// read the whole answer, and send the next, until Duration has passed.
type LoadConfig struct {
	URL         string
	Method      string
	Body        string
	Header      http.Header
	Connections int
	Duration    time.Duration
	// Timeout bounds one request; a request still running when Duration
	// ends is abandoned and not counted.
	Timeout time.Duration
}

// LoadResult is what a run measured. Latencies are of completed requests,
// successful or not.
type LoadResult struct {
	URL         string        `json:"url"`
	Method      string        `json:"method"`
	Connections int           `json:"connections"`
	Elapsed     time.Duration `json:"elapsed_ns"`
	Requests    int64         `json:"requests"`
	Errors      int64         `json:"errors"`  // transport errors: no HTTP answer
	Non2xx      int64         `json:"non_2xx"` // answers outside 200–299
	RPS         float64       `json:"requests_per_second"`
	P50         time.Duration `json:"p50_ns"`
	P90         time.Duration `json:"p90_ns"`
	P99         time.Duration `json:"p99_ns"`
	Max         time.Duration `json:"max_ns"`
	// FirstError is a sample transport error or non-2xx status, for the report.
	FirstError string `json:"first_error,omitempty"`
}

// CheckLoopback refuses any target that is not this machine: only
// 127.0.0.0/8, ::1 and the name localhost are allowed.
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("bad -url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("bad -url %q: want http:// or https://", raw)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing target %q: loadgen only drives loopback addresses (127.0.0.0/8, ::1, localhost)", host)
}

// loopbackOnly is a dialer Control hook: whatever a name resolved to, the
// socket may only connect to a loopback address.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to connect to %s: not a loopback address", address)
	}
	return nil
}

// newClient is a keep-alive client with one idle connection per worker, that
// follows no redirects and connects only to loopback addresses.
func newClient(conns int, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: loopbackOnly}
	tr := &http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// worker results, merged at the end so that the hot loop shares nothing.
type workerResult struct {
	lat        []time.Duration
	errors     int64
	non2xx     int64
	firstError string
}

// RunLoad runs cfg and returns what it measured. It stops by itself after
// cfg.Duration (or when ctx ends).
func RunLoad(ctx context.Context, cfg LoadConfig) (LoadResult, error) {
	if err := CheckLoopback(cfg.URL); err != nil {
		return LoadResult{}, err
	}
	if cfg.Connections < 1 {
		return LoadResult{}, errors.New("-c must be at least 1")
	}
	if cfg.Duration <= 0 {
		return LoadResult{}, errors.New("-d must be positive")
	}
	if cfg.Method == "" {
		cfg.Method = http.MethodGet
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	client := newClient(cfg.Connections, cfg.Timeout)
	defer client.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	body := []byte(cfg.Body)
	results := make([]workerResult, cfg.Connections)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range results {
		wg.Add(1)
		go func(res *workerResult) {
			defer wg.Done()
			res.lat = make([]time.Duration, 0, 1<<14)
			// One request per worker, reused: net/http allows it once the
			// previous response body is closed, and it keeps the driver's own
			// CPU use down on a machine it shares with the server.
			req, err := http.NewRequestWithContext(ctx, cfg.Method, cfg.URL, http.NoBody)
			if err != nil {
				res.errors++
				res.firstError = err.Error()
				return
			}
			for k, vs := range cfg.Header {
				req.Header[k] = vs
			}
			if h := cfg.Header.Get("Host"); h != "" {
				req.Host = h
			}
			for ctx.Err() == nil {
				if len(body) > 0 {
					req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				}
				d := time.Since(t0)
				if ctx.Err() != nil {
					return // cut off by the end of the run: not a result
				}
				res.lat = append(res.lat, d)
				switch {
				case err != nil:
					res.errors++
					if res.firstError == "" {
						res.firstError = err.Error()
					}
				case resp.StatusCode < 200 || resp.StatusCode > 299:
					res.non2xx++
					if res.firstError == "" {
						res.firstError = "HTTP " + resp.Status
					}
				}
			}
		}(&results[i])
	}
	wg.Wait()
	elapsed := min(time.Since(start), cfg.Duration)
	return summarise(cfg, elapsed, results), nil
}

func summarise(cfg LoadConfig, elapsed time.Duration, results []workerResult) LoadResult {
	r := LoadResult{URL: cfg.URL, Method: cfg.Method, Connections: cfg.Connections, Elapsed: elapsed}
	n := 0
	for _, w := range results {
		n += len(w.lat)
	}
	all := make([]time.Duration, 0, n)
	for _, w := range results {
		all = append(all, w.lat...)
		r.Errors += w.errors
		r.Non2xx += w.non2xx
		if r.FirstError == "" {
			r.FirstError = w.firstError
		}
	}
	slices.Sort(all)
	r.Requests = int64(len(all))
	if elapsed > 0 {
		r.RPS = float64(r.Requests) / elapsed.Seconds()
	}
	r.P50, r.P90, r.P99 = percentile(all, 50), percentile(all, 90), percentile(all, 99)
	if len(all) > 0 {
		r.Max = all[len(all)-1]
	}
	return r
}

// percentile is the nearest-rank percentile p of sorted; 0 when empty.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// String renders r for people.
func (r LoadResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "target       %s %s\n", r.Method, r.URL)
	fmt.Fprintf(&b, "run          %.2fs, %d connections\n", r.Elapsed.Seconds(), r.Connections)
	fmt.Fprintf(&b, "requests     %d (%.0f req/s)\n", r.Requests, r.RPS)
	fmt.Fprintf(&b, "latency      p50 %s  p90 %s  p99 %s  max %s\n", ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	fmt.Fprintf(&b, "errors       %d\n", r.Errors)
	fmt.Fprintf(&b, "non-2xx      %d\n", r.Non2xx)
	if r.FirstError != "" {
		fmt.Fprintf(&b, "first error  %s\n", r.FirstError)
	}
	return b.String()
}

// ms renders d in milliseconds with enough digits for sub-millisecond latency.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond))
}
