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
	best, ok := rep.best(loads[0].name)
	is.True(ok)
	is.Equal(best.Driver, driverWrk)
	best, ok = rep.best(loads[1].name)
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
