// Command loadgen is Depot's closed-loop HTTP load driver and benchmark suite.
//
//	loadgen -url http://127.0.0.1:3000/api/v1/version [-c 32] [-d 10s] [-H 'Name: value']... [-method GET] [-body ...]
//	loadgen -suite [-depot bin/depot] [-out docs/benchmarks.md] [-wrk wrk] [-create-n 200] [-repos 10000] [-git-iters 10]
//	loadgen -git-bench [-depot bin/depot] [-git-iters 10]
//
// The first form keeps -c connections busy for -d and prints requests per
// second, p50/p99 latency, transport errors and non-2xx answers. The second
// is `make bench`: it starts bin/depot, measures start-up, memory and
// throughput (with loadgen, and with wrk when it is installed), runs the Go
// benchmarks and writes docs/benchmarks.md. The third runs only the suite's
// Git benchmarks (clone and push over HTTP against file://, memory under
// concurrent clones) and prints their table.
//
// Only loopback targets are driven (127.0.0.0/8, ::1, localhost): this is a
// tool for measuring one's own machine, never anyone else's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// headerFlags collects repeated -H 'Name: value' flags.
type headerFlags struct{ h http.Header }

func (f *headerFlags) String() string {
	if f == nil || f.h == nil {
		return ""
	}
	var parts []string
	for k, vs := range f.h {
		for _, v := range vs {
			parts = append(parts, k+": "+v)
		}
	}
	return strings.Join(parts, ", ")
}

func (f *headerFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("header %q: want 'Name: value'", s)
	}
	if f.h == nil {
		f.h = http.Header{}
	}
	f.h.Add(name, strings.TrimSpace(value))
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		headers  headerFlags
		target   = fs.String("url", "", "target URL (loopback only)")
		conns    = fs.Int("c", 32, "connections (concurrent closed-loop workers)")
		duration = fs.Duration("d", 10*time.Second, "duration of the run")
		method   = fs.String("method", http.MethodGet, "HTTP method")
		body     = fs.String("body", "", "request body")
		timeout  = fs.Duration("timeout", 10*time.Second, "timeout of one request")
		asJSON   = fs.Bool("json", false, "print the result as JSON")

		suite     = fs.Bool("suite", false, "run the whole benchmark suite (make bench) instead of one load")
		depot     = fs.String("depot", "bin/depot", "suite: the depot binary to start")
		out       = fs.String("out", "docs/benchmarks.md", "suite: the report to write")
		goCmd     = fs.String("go", "go", "suite: the go command for the Go benchmarks")
		warmup    = fs.Duration("warmup", 2*time.Second, "suite: warm-up load before each measured run")
		benchPkgs = fs.String("bench-pkgs", "./adapters/http/ ./app/auth/ ./adapters/sqlstore/ ./adapters/libgit2/ ./adapters/markup/ ./test/", "suite: packages whose Go benchmarks run")
		quietWait = fs.Duration("quiet-wait", time.Minute, "suite: wait up to this long before each load run for other processes to go idle")
		wrk       = fs.String("wrk", "wrk", "suite: the wrk command that measures each load too ('' or not installed: loadgen only)")
		createN   = fs.Int("create-n", 200, "suite: repositories with auto_init each measured creation run makes")
		repos     = fs.Int("repos", 10000, "suite: repositories the site holds for the repository loads")
		gitIters  = fs.Int("git-iters", 10, "suite: samples of each Git push, and three times as many clones (0: no Git benchmarks)")
		gitOnly   = fs.Bool("git-bench", false, "run only the Git benchmarks against -depot and print their table")
	)
	fs.Var(&headers, "H", "request header 'Name: value' (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	if *gitOnly {
		return RunGitOnly(ctx, *depot, max(*gitIters, 1), *quietWait, stdout, stderr)
	}
	if *suite {
		return RunSuite(ctx, SuiteConfig{
			Depot: *depot, Out: *out, Go: *goCmd, Connections: *conns, Duration: *duration,
			Warmup: *warmup, BenchPkgs: strings.Fields(*benchPkgs), QuietWait: *quietWait, Wrk: *wrk,
			CreateN: *createN, Repos: *repos, GitIters: *gitIters,
		}, stderr)
	}

	if *target == "" {
		fs.Usage()
		return errors.New("-url is required")
	}
	res, err := RunLoad(ctx, LoadConfig{
		URL: *target, Method: strings.ToUpper(*method), Body: *body, Header: headers.h,
		Connections: *conns, Duration: *duration, Timeout: *timeout,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	_, err = fmt.Fprint(stdout, res.String())
	return err
}
