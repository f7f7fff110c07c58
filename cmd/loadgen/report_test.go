package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func testRun(name, driver string, rps float64, errors int64) Run {
	return Run{Name: name, Driver: driver, Result: LoadResult{
		Connections: 32, Elapsed: 10 * time.Second, Requests: int64(rps * 10), RPS: rps, Errors: errors,
	}}
}

func TestReportVerdictGoesByBestCleanRun(t *testing.T) {
	is := is.New(t)
	rep := &Report{Runs: []Run{
		testRun(loads[0].name, driverLoadgen, 26000, 0),
		testRun(loads[0].name, driverWrk, 41000, 0),
		testRun(loads[1].name, driverLoadgen, 27000, 0),
		testRun(loads[1].name, driverWrk, 90000, 3), // faster, but not clean
	}}
	best, ok := rep.best(loads[0].name, loads[0].goal)
	is.True(ok)
	is.Equal(best.Driver, driverWrk)
	best, ok = rep.best(loads[1].name, loads[1].goal)
	is.True(ok)
	is.Equal(best.Driver, driverLoadgen)

	out := filepath.Join(t.TempDir(), "benchmarks.md")
	is.NoErr(writeReport(out, rep))
	b, err := os.ReadFile(out)
	is.NoErr(err)
	md := string(b)
	is.True(strings.Contains(md, "| GET /api/v1/version | 41,000 req/s | 26,000 req/s | ≥ 30,000 req/s | ~36,000 req/s | met (wrk's run) |"))
	is.True(strings.Contains(md, "| 90,000 req/s, not clean (3 errors, 0 error answers) | 27,000 req/s |"))
	is.True(strings.Contains(md, "met (loadgen's run) |"))
}

func TestReportWithoutWrk(t *testing.T) {
	is := is.New(t)
	rep := &Report{Runs: []Run{
		testRun(loads[0].name, driverLoadgen, 26000, 0),
		testRun(loads[1].name, driverLoadgen, 27000, 0),
	}}
	is.Equal(findWrk(context.Background(), "/nonexistent/wrk", rep), "")
	is.True(strings.Contains(rep.WrkNote, "measured with loadgen only"))

	out := filepath.Join(t.TempDir(), "benchmarks.md")
	is.NoErr(writeReport(out, rep))
	b, err := os.ReadFile(out)
	is.NoErr(err)
	md := string(b)
	is.True(strings.Contains(md, "**wrk is not installed"))
	is.True(strings.Contains(md, "| wrk | not used |"))
	is.True(strings.Contains(md, "| GET /api/v1/version | not run | 26,000 req/s | ≥ 30,000 req/s | ~36,000 req/s | **missed** (loadgen's run) |"))
}

// loadNamed is the suite's load with the path and connection override.
func loadNamed(t *testing.T, path string, conns int) load {
	t.Helper()
	for _, l := range loads {
		if l.path == path && l.conns == conns {
			return l
		}
	}
	t.Fatalf("no load of %s with %d connections", path, conns)
	return load{}
}

func TestReportLatencyTargetGoesByLowestCleanMedian(t *testing.T) {
	is := is.New(t)
	search := loadNamed(t, pathSearchFew, 0)
	is.True(search.latency())
	fast := testRun(search.name, driverWrk, 9000, 0)
	fast.Result.P50 = 3 * time.Millisecond
	slow := testRun(search.name, driverLoadgen, 7000, 0)
	slow.Result.P50 = 6 * time.Millisecond
	rep := &Report{Connections: 32, Runs: []Run{slow, fast}}
	best, ok := rep.best(search.name, search.goal)
	is.True(ok)
	is.Equal(best.Driver, driverWrk)

	out := filepath.Join(t.TempDir(), "benchmarks.md")
	is.NoErr(writeReport(out, rep))
	b, err := os.ReadFile(out)
	is.NoErr(err)
	md := string(b)
	is.True(strings.Contains(md, "| "+search.name+" | p50 3.000ms at 9,000 req/s | p50 6.000ms at 7,000 req/s | p50 < 5 ms | ~100 req/s, p50 ~190 ms | met (wrk's run) |"))
	// A load without a run is missed, whatever its kind of target.
	is.True(strings.Contains(md, "| "+loadNamed(t, pathGetRepo, 0).name+" | not run | not run | ≥ 10,000 req/s | ~200 req/s | **missed** (no clean run) |"))
}

func TestReportCreations(t *testing.T) {
	is := is.New(t)
	specs := createSpecs(200)
	ok := testRun(specs[0].name, driverLoadgen, 50, 0)
	ok.Result.Requests, ok.Result.P50 = 200, 20*time.Millisecond
	slow := testRun(specs[1].name, driverLoadgen, 60, 0)
	slow.Result.Requests, slow.Result.P50 = 200, 70*time.Millisecond
	rep := &Report{Connections: 32, Creates: specs, Runs: []Run{ok, slow}, Seed: Seed{Total: 10000, Described: 960, Topics: 96}}

	out := filepath.Join(t.TempDir(), "benchmarks.md")
	is.NoErr(writeReport(out, rep))
	b, err := os.ReadFile(out)
	is.NoErr(err)
	md := string(b)
	is.True(strings.Contains(md, "| "+specs[0].name+" | 200 | 50.0/s | 20.000ms |"))
	is.True(strings.Contains(md, "| p50 < 30 ms | ~35/s | met |"))
	is.True(strings.Contains(md, "| p50 < 30 ms | ~35/s | **missed** |"))
	is.True(strings.Contains(md, "The loads ran over 10,000 repositories"))
}

func TestReadTop(t *testing.T) {
	is := is.New(t)
	// pprof -top -cum focused on the server side of a search: the handler's
	// connection goroutine and bun's two query goroutines are the roots.
	out := `File: http.test
Build ID: abc
Type: cpu
Time: 2026-01-01 00:00:00 UTC
Showing nodes accounting for 4s, 80% of 5s total
Showing top 100000 nodes out of 3
      flat  flat%   sum%        cum   cum%
         0     0%     0%      2.00s 40.00%  github.com/uptrace/bun.(*SelectQuery).scanAndCountConcurrently.func2
         0     0%     0%      1.50s 30.00%  net/http.(*conn).serve
         0     0%     0%      1.00s 20.00%  github.com/depothq/depot/adapters/http.(*Server).ServeHTTP
     0.40s  8.00%  8.00%      0.40s  8.00%  syscall.Syscall
         0     0%     0%      0.50s 10.00%  github.com/uptrace/bun.(*SelectQuery).scanAndCountConcurrently.func1
`
	top, depot, sys := readTop(out)
	is.True(!strings.Contains(top, "Build ID") && !strings.Contains(top, "Time:"))
	is.True(strings.Contains(top, "Showing the top 30 nodes by cumulative time"))
	is.Equal(depot, 100*(20.0+40+10)/(30+40+10)) // the handler plus bun's goroutines, of all three roots
	is.Equal(sys, 100*8.0/80)
}
