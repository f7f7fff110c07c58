package main

// The server binary has no profiling endpoint, so the suite profiles each
// request type in process, through the loopback benchmarks of adapters/http.

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// Profile is the server side of one request type over loopback: a CPU
// profile of an adapters/http loopback benchmark, focused on the server's
// goroutines (serverFocus).
type Profile struct {
	Name, Bench string
	// Top is go tool pprof -top -cum, or why there is none.
	Top string
	// Shares of the server goroutines' CPU, in percent; zero
	// when the profile could not be read.
	Depot, Syscalls float64
}

// serverFocus selects the server's goroutines in a profile: the connection
// goroutines, and the two that bun starts for a listing to run its page query
// and its count at the same time (they do not descend from the connection's).
const serverFocus = `net/http\.\(\*conn\)\.serve|bun\.\(\*SelectQuery\)\.scanAndCountConcurrently\.func`

// The roots of the server's goroutines in a focused profile, and Depot's handler.
const (
	rootServe    = "net/http.(*conn).serve"
	rootScan     = "github.com/uptrace/bun.(*SelectQuery).scanAndCountConcurrently.func1"
	rootCount    = "github.com/uptrace/bun.(*SelectQuery).scanAndCountConcurrently.func2"
	depotHandler = "github.com/depothq/depot/adapters/http.(*Server).ServeHTTP"
)

// profileLines is how many of pprof's nodes the report shows.
const profileLines = 30

// profileServer CPU-profiles one loopback benchmark of adapters/http and
// returns pprof's top list focused on the server side, with the shares of
// Depot's handler (with the listing queries bun runs beside it) and of
// system calls in it.
func profileServer(ctx context.Context, goCmd, work, name, bench string) Profile {
	p := Profile{Name: name, Bench: bench}
	prof := filepath.Join(work, "cpu-"+strings.NewReplacer("/", "-", "^", "", "$", "").Replace(bench)+".pprof")
	bin := filepath.Join(work, "http.test")
	if out, err := tee(ctx, io.Discard, goCmd, "test", "-run", "^$", "-bench", bench,
		"-benchtime", "3s", "-cpuprofile", prof, "-o", bin, "./adapters/http/"); err != nil {
		p.Top = "profiling failed: " + err.Error() + "\n" + out
		return p
	}
	// Every node, so that the roots' shares can be read however low they rank.
	out, err := tee(ctx, io.Discard, goCmd, "tool", "pprof", "-top", "-cum", "-nodecount=100000", "-focus="+serverFocus, bin, prof)
	if err != nil {
		p.Top = "pprof failed: " + err.Error() + "\n" + out
		return p
	}
	p.Top, p.Depot, p.Syscalls = readTop(out)
	return p
}

// readTop keeps the header and the first profileLines nodes of pprof's
// `-top -cum` output, without the lines naming files, build ids and times of
// this run, and computes the shares of Depot's handler and of system calls in
// the server goroutines' CPU time (zero when the roots are missing).
func readTop(out string) (top string, depot, syscalls float64) {
	var keep []string
	cum := map[string]float64{}
	nodes := 0
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "File:") || strings.HasPrefix(line, "Build ID:") || strings.HasPrefix(line, "Time:") {
			continue
		}
		// flat flat% sum% cum cum% name
		f := strings.Fields(line)
		isNode := len(f) >= 6 && strings.HasSuffix(f[4], "%")
		if isNode {
			if v, err := strconv.ParseFloat(strings.TrimSuffix(f[4], "%"), 64); err == nil {
				cum[strings.Join(f[5:], " ")] = v
			}
			if nodes++; nodes > profileLines {
				continue
			}
		}
		if strings.HasPrefix(line, "Showing top") {
			line = fmt.Sprintf("Showing the top %d nodes by cumulative time", profileLines)
		}
		keep = append(keep, line)
	}
	bunQueries := cum[rootScan] + cum[rootCount]
	if total := cum[rootServe] + bunQueries; total > 0 {
		depot = 100 * (cum[depotHandler] + bunQueries) / total
		syscalls = 100 * max(cum["syscall.Syscall"], cum["syscall.RawSyscall6"]) / total
	}
	return strings.TrimRight(strings.Join(keep, "\n"), "\n"), depot, syscalls
}
