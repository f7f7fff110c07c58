package main

// wrk is the suite's second load driver. loadgen, being Go's net/http,
// costs about as much CPU per request as the server it measures, and on a
// machine with few CPUs that caps what it can show; wrk (C, epoll) is far
// lighter. The suite runs it as a child process and parses its report.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// wrkThreads is wrk's -t: one event loop per CPU of the 2-core machine the
// suite was written for.
const wrkThreads = 2

// wrkVersion is the first line of `wrk --version` without the copyright,
// or "" when wrk cannot run.
func wrkVersion(ctx context.Context, bin string) string {
	// wrk prints its version and exits 1, so the output counts, not the status.
	out, _ := exec.CommandContext(ctx, bin, "--version").Output()
	line, _, _ := strings.Cut(string(out), "\n")
	line, _, _ = strings.Cut(line, " Copyright")
	return strings.TrimSpace(line)
}

// checkLoopbackLiteral is CheckLoopback for a driver whose dialer loadgen
// does not control: the host must be a loopback IP address itself, not a
// name that wrk would resolve.
func checkLoopbackLiteral(raw string) error {
	if err := CheckLoopback(raw); err != nil {
		return err
	}
	u, _ := url.Parse(raw)
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing target %q: wrk only drives loopback IP addresses", u.Hostname())
	}
	return nil
}

// wrkArgs is the command line for one run of cfg:
// -t2 -c<conns> -d<secs>s --latency [-H 'Name: value']... URL.
func wrkArgs(cfg LoadConfig) []string {
	secs := max(int(cfg.Duration.Round(time.Second)/time.Second), 1)
	args := []string{
		"-t" + strconv.Itoa(min(wrkThreads, cfg.Connections)),
		"-c" + strconv.Itoa(cfg.Connections),
		"-d" + strconv.Itoa(secs) + "s",
		"--latency",
	}
	names := make([]string, 0, len(cfg.Header))
	for k := range cfg.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range cfg.Header[k] {
			args = append(args, "-H", k+": "+v)
		}
	}
	return append(args, cfg.URL)
}

// RunWrk runs wrk (the binary bin) for cfg, a GET of a loopback IP address,
// and returns what wrk reported, the CPU time the wrk process used
// (user+system, from wait4), and wrk's output.
func RunWrk(ctx context.Context, bin string, cfg LoadConfig) (LoadResult, time.Duration, string, error) {
	if err := checkLoopbackLiteral(cfg.URL); err != nil {
		return LoadResult{}, 0, "", err
	}
	if cfg.Method != "" && cfg.Method != http.MethodGet || cfg.Body != "" {
		return LoadResult{}, 0, "", errors.New("the suite drives wrk with plain GETs only")
	}
	if cfg.Connections < 1 || cfg.Duration <= 0 {
		return LoadResult{}, 0, "", errors.New("wrk needs at least one connection and a positive duration")
	}
	cmd := exec.CommandContext(ctx, bin, wrkArgs(cfg)...)
	out, err := cmd.CombinedOutput()
	var cpu time.Duration
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return LoadResult{}, cpu, string(out), fmt.Errorf("wrk: %w\n%s", err, out)
	}
	res, err := parseWrk(string(out))
	if err != nil {
		return LoadResult{}, cpu, string(out), err
	}
	res.URL, res.Method, res.Connections = cfg.URL, http.MethodGet, cfg.Connections
	return res, cpu, string(out), nil
}

// A number with one of the time units wrk prints (us, ms, s, m, h).
const wrkTime = `([0-9.]+)(us|ms|s|m|h)`

var (
	wrkTotal     = regexp.MustCompile(`(?m)^\s*(\d+) requests in ` + wrkTime + `, `)
	wrkRate      = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)`)
	wrkLatency   = regexp.MustCompile(`(?m)^[ \t]*Latency[ \t]+` + wrkTime + `[ \t]+` + wrkTime + `[ \t]+` + wrkTime)
	wrkPercent   = regexp.MustCompile(`(?m)^[ \t]*(\d+)%[ \t]+` + wrkTime)
	wrkSocketErr = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkNon2xx    = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
)

// parseWrk reads the report of `wrk --latency`: requests, run time and
// Requests/sec; p50, p90 and p99 of the latency distribution; the maximum
// latency from the thread stats; socket errors (connect, read, write and
// timeout, summed) as transport errors; and "Non-2xx or 3xx responses"
// (wrk's count of answers with a status of 400 or more) as Non2xx. The last
// two lines only appear when their counts are not zero.
func parseWrk(out string) (LoadResult, error) {
	var r LoadResult
	m := wrkTotal.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no \"N requests in T\" line in wrk's output:\n%s", out)
	}
	r.Requests, _ = strconv.ParseInt(m[1], 10, 64)
	r.Elapsed = wrkDuration(m[2], m[3])
	m = wrkRate.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests/sec in wrk's output:\n%s", out)
	}
	r.RPS, _ = strconv.ParseFloat(m[1], 64)

	if m = wrkLatency.FindStringSubmatch(out); m != nil {
		r.Max = wrkDuration(m[5], m[6])
	}
	for _, m := range wrkPercent.FindAllStringSubmatch(out, -1) {
		d := wrkDuration(m[2], m[3])
		switch m[1] {
		case "50":
			r.P50 = d
		case "90":
			r.P90 = d
		case "99":
			r.P99 = d
		}
	}
	if r.Requests > 0 && (r.P50 == 0 || r.P90 == 0 || r.P99 == 0) {
		return r, fmt.Errorf("no latency distribution in wrk's output (run it with --latency):\n%s", out)
	}

	if m = wrkSocketErr.FindStringSubmatch(out); m != nil {
		for _, n := range m[1:] {
			v, _ := strconv.ParseInt(n, 10, 64)
			r.Errors += v
		}
		r.FirstError = "wrk: " + m[0]
	}
	if m = wrkNon2xx.FindStringSubmatch(out); m != nil {
		r.Non2xx, _ = strconv.ParseInt(m[1], 10, 64)
		if r.FirstError == "" {
			r.FirstError = "wrk: " + m[0]
		}
	}
	return r, nil
}

// wrkDuration converts a number and a wrk time unit into a duration.
func wrkDuration(num, unit string) time.Duration {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0
	}
	scale := map[string]time.Duration{
		"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour,
	}[unit]
	return time.Duration(math.Round(v * float64(scale)))
}
