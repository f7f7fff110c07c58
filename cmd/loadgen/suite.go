package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// SuiteConfig is `make bench`.
type SuiteConfig struct {
	// Depot is the server binary; Out the Markdown report; Go the go command.
	Depot, Out, Go string
	// Connections and Duration shape every measured load run; Warmup runs
	// before each and is not counted.
	Connections      int
	Duration, Warmup time.Duration
	// BenchPkgs are the packages whose Go benchmarks run.
	BenchPkgs []string
	// QuietWait is how long to wait, before each load run, for other
	// processes to leave the CPUs alone (0: do not wait).
	QuietWait time.Duration
	// Wrk is the wrk command that measures each load a second time; when
	// it is "" or not installed, loadgen measures alone.
	Wrk string
	// CreateN is how many repositories with auto_init each measured
	// creation run makes (at least 2: the GET load reads the second).
	CreateN int
	// Repos is how many repositories the site holds for the repository
	// loads: plain ones are created after the measured ones up to it.
	Repos int
	// GitIters is how many samples each Git clone and push takes (git.go);
	// 0 skips the Git benchmarks.
	GitIters int
}

// Report is everything the suite measured, rendered by writeReport.
type Report struct {
	When    time.Time
	Machine Machine
	GoVer   string
	DepotV  string
	Commit  string // git HEAD when the suite started, "" outside a work tree
	WrkV    string // wrk --version, when wrk measured
	// WrkNote says why there are no wrk runs, or why some are missing.
	WrkNote string

	FreshStart, Restart  time.Duration // process start to first answer
	FreshRSS, RestartRSS int64         // VmRSS in bytes, idle after start
	LoadedRSS, PeakRSS   int64         // VmRSS and VmHWM after the load runs
	// FreshAnon, RestartAnon and LoadedAnon are RssAnon at the same
	// moments: the server's own memory, without the executable's pages.
	FreshAnon, RestartAnon, LoadedAnon int64
	// RestedRSS and RestedAnon are read restSettle after the load runs.
	RestedRSS, RestedAnon int64
	// SignInRSS and SignInAnon are read restSettle after signInBurst
	// password sign-ins at once (issue 27's measure).
	SignInRSS, SignInAnon int64
	// Connections is the load runs' connection count (-c).
	Connections int
	// Creates are the measured repository creations, each a run in Runs;
	// Seed is what the repository loads ran over.
	Creates []createSpec
	Seed    Seed
	Runs    []Run

	// Git is what the Git transport benchmarks measured (git.go); nil
	// when they did not run.
	Git *GitBench

	Profiles []Profile // server side of each request type
	GoBench  string    // go test -bench output
	BenchErr error
	ExitCode int // of the server after SIGTERM
}

// Run is one measured load run with the CPU both sides used, and what the
// whole machine used: the difference is other processes, which on a shared
// machine skew the result.
type Run struct {
	Name       string // the load, as in loads
	Driver     string // driverLoadgen or driverWrk
	Result     LoadResult
	ServerCPU  time.Duration
	DriverCPU  time.Duration // the load driver's
	MachineCPU time.Duration // every process, from /proc/stat
	StealCPU   time.Duration // taken by the hypervisor
	LoadAvg    string        // /proc/loadavg before the run
}

// The load drivers.
const (
	driverLoadgen = "loadgen"
	driverWrk     = "wrk"
)

// goal is what a measurement is held to: a throughput, a median latency,
// or both; and Gitea's figure for scale.
type goal struct {
	rps   float64       // at least this many requests per second; 0: no throughput target
	p50   time.Duration // a median latency below this; 0: no latency target
	gitea string
}

// load is one request type the suite drives, and the target it is held to.
type load struct {
	name, path string
	token      tokenKind // which token to send, if any
	conns      int       // connections; 0: the suite's -c
	goal
}

// tokenKind is the credential a load sends.
type tokenKind int

const (
	noToken    tokenKind = iota
	userToken            // Authorization: token <a read:user token>
	repoToken            // Authorization: token <a write:repository,read:user token>
	otherToken           // the same scopes, of an ordinary user who owns no repository
)

// The repository loads: the keyword search matches ten of the seeded names
// (bench-00420 to bench-00429) among 10,000, so it measures the scan that
// finds them; the sorted one matches nearly all, so it measures counting
// them and sorting by a column. The administrator sees every repository; an
// ordinary user's search also checks, row by row, that it may see each.
const (
	pathGetRepo      = "/api/v1/repos/admin/init-0001"
	pathSearchFew    = "/api/v1/repos/search?q=bench-0042&limit=10"
	pathSearchSorted = "/api/v1/repos/search?q=bench&limit=10&sort=updated&order=desc"
)

// The content loads read the README that auto_init wrote into the
// repository the GET load reads: through the contents API (JSON, base64) and
// raw.
const (
	pathContents = pathGetRepo + "/contents/README.md"
	pathRaw      = pathGetRepo + "/raw/README.md"
)

var loads = []load{
	{name: "GET /api/v1/version", path: "/api/v1/version", goal: goal{rps: targetVersionRPS, gitea: giteaVersionRPS}},
	{name: "GET /api/v1/user (token)", path: "/api/v1/user", token: userToken, goal: goal{rps: targetTokenRPS, gitea: giteaTokenRPS}},
	{name: "GET " + pathGetRepo + " (token)", path: pathGetRepo, token: repoToken, goal: goal{rps: targetRepoRPS, gitea: giteaRepoRPS}},
	{name: "GET " + pathSearchFew + " (token)", path: pathSearchFew, token: repoToken, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathSearchSorted + " (token)", path: pathSearchSorted, token: repoToken, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathSearchFew + " (token), 1 connection", path: pathSearchFew, token: repoToken, conns: 1, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathSearchSorted + " (token), 1 connection", path: pathSearchSorted, token: repoToken, conns: 1, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathSearchFew + " (ordinary user's token), 1 connection", path: pathSearchFew, token: otherToken, conns: 1, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathSearchSorted + " (ordinary user's token), 1 connection", path: pathSearchSorted, token: otherToken, conns: 1, goal: goal{p50: targetSearchP50, gitea: giteaSearch}},
	{name: "GET " + pathContents + " (token)", path: pathContents, token: repoToken, goal: goal{rps: targetContentRPS, gitea: giteaContentRPS}},
	{name: "GET " + pathRaw + " (token)", path: pathRaw, token: repoToken, goal: goal{rps: targetContentRPS, gitea: giteaContentRPS}},
	{name: "GET " + pathPulls + " over " + thousands(benchPulls) + " pull requests (token)", path: pathPulls, token: repoToken, goal: goal{rps: targetPullsRPS, gitea: giteaPulls}},
}

// idleSettle is how long the server sits idle before its RSS is read: the
// issue's "10 s after start", and past the server's first quiet moment
// (5-10 s after start, httpkit.IdleMemory), when it hands back what only
// start-up used.
const idleSettle = 12 * time.Second

// signInBurst is how many Basic-auth requests the sign-in measure sends at
// once.
const signInBurst = 10

// restSettle is how long the server rests after the load runs before its
// RSS is read again: the server returns freed memory 5-10 s after its
// traffic stops (httpkit.IdleMemory).
const restSettle = 15 * time.Second

// RunSuite runs the whole suite and writes cfg.Out. Progress goes to log.
func RunSuite(ctx context.Context, cfg SuiteConfig, log io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(log, "bench: "+format+"\n", args...) }
	if cfg.CreateN < 2 {
		return errors.New("-create-n must be at least 2: the GET load reads " + initName(1))
	}
	rep := &Report{When: time.Now().UTC(), Machine: readMachine(), Connections: cfg.Connections}
	rep.GoVer = strings.TrimSpace(output(ctx, cfg.Go, "version"))
	rep.DepotV = strings.TrimSpace(output(ctx, cfg.Depot, "version"))
	// Read-only: rev-parse neither refreshes nor locks the index.
	rep.Commit = strings.TrimSpace(output(ctx, "git", "rev-parse", "--short", "HEAD"))

	work, err := os.MkdirTemp("", "depot-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dataDir := filepath.Join(work, "data")

	// A fresh start: empty data directory, so the schema is created and the
	// administrator's password hashed before the first answer.
	say("starting %s on a fresh data directory", cfg.Depot)
	srv, err := startServer(ctx, cfg.Depot, dataDir, filepath.Join(work, "depot-1.log"))
	if err != nil {
		return err
	}
	rep.FreshStart = srv.firstAnswer
	time.Sleep(idleSettle)
	rep.FreshRSS, _ = srv.memory()
	rep.FreshAnon = srv.anon()
	password, err := srv.adminPassword()
	if err != nil {
		srv.kill()
		return err
	}
	if code, err := srv.stop(); err != nil || code != 0 {
		return fmt.Errorf("first server did not stop cleanly (exit %d): %v", code, err)
	}
	say("fresh start: first answer after %s, idle RSS %s", rep.FreshStart.Round(time.Millisecond), mib(rep.FreshRSS))

	// A restart on the same data: what an upgrade or a reboot costs.
	srv, err = startServer(ctx, cfg.Depot, dataDir, filepath.Join(work, "depot-2.log"))
	if err != nil {
		return err
	}
	defer srv.kill()
	rep.Restart = srv.firstAnswer
	time.Sleep(idleSettle)
	rep.RestartRSS, _ = srv.memory()
	rep.RestartAnon = srv.anon()
	say("restart: first answer after %s, idle RSS %s", rep.Restart.Round(time.Millisecond), mib(rep.RestartRSS))

	if err := signIns(ctx, srv.url, password, signInBurst); err != nil {
		return err
	}
	time.Sleep(restSettle)
	rep.SignInRSS, _ = srv.memory()
	rep.SignInAnon = srv.anon()
	say("%d sign-ins at once, %s later: RSS %s", signInBurst, restSettle, mib(rep.SignInRSS))

	tokens, err := makeTokens(ctx, srv.url, password)
	if err != nil {
		return err
	}
	say("creating repositories through POST /api/v1/user/repos")
	if err := prepareRepos(ctx, cfg, srv, newAPI(srv.url, tokens[repoToken], seedClients), rep, log, say); err != nil {
		return err
	}

	say("opening %d pull requests through POST R/contents and POST R/pulls", benchPulls)
	if err := preparePulls(ctx, newAPI(srv.url, tokens[repoToken], seedClients), benchPulls, say); err != nil {
		return err
	}

	wrk := findWrk(ctx, cfg.Wrk, rep)
	if wrk == "" {
		say("%s", rep.WrkNote)
	}
	for _, l := range loads {
		lc := LoadConfig{URL: srv.url + l.path, Method: http.MethodGet, Connections: cfg.Connections}
		if l.conns > 0 {
			lc.Connections = l.conns
		}
		if l.token != noToken {
			lc.Header = http.Header{"Authorization": {"token " + tokens[l.token]}}
		}
		what := fmt.Sprintf("%s, %s", plural(lc.Connections, "connection"), cfg.Duration)
		if cfg.Warmup > 0 {
			lc.Duration = cfg.Warmup
			if _, err := RunLoad(ctx, lc); err != nil {
				return err
			}
		}
		lc.Duration = cfg.Duration
		run, err := measureRun(ctx, cfg, srv, l.name, driverLoadgen, what, say, func() (LoadResult, time.Duration, error) {
			cpu0 := selfCPU()
			res, err := RunLoad(ctx, lc)
			return res, selfCPU() - cpu0, err
		})
		if err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, run)
		fmt.Fprint(log, indent(run.Result.String()))
		if wrk == "" {
			continue
		}
		// wrk follows loadgen's run on the same, warm server.
		run, err = measureRun(ctx, cfg, srv, l.name, driverWrk, what, say, func() (LoadResult, time.Duration, error) {
			res, cpu, out, err := RunWrk(ctx, wrk, lc)
			fmt.Fprint(log, indent(out))
			return res, cpu, err
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			msg, _, _ := strings.Cut(err.Error(), "\n")
			note := fmt.Sprintf("wrk failed on %s, so that load has no wrk run: %s.", l.name, msg)
			rep.WrkNote = strings.TrimSpace(rep.WrkNote + " " + note)
			say("%s", note)
			continue
		}
		rep.Runs = append(rep.Runs, run)
	}
	rep.LoadedRSS, rep.PeakRSS = srv.memory()
	rep.LoadedAnon = srv.anon()
	// And once the server has rested: what it keeps of the load.
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(restSettle):
	}
	rep.RestedRSS, _ = srv.memory()
	rep.RestedAnon = srv.anon()
	say("after the load: RSS %s (own %s), %s later %s (own %s)", mib(rep.LoadedRSS), mib(rep.LoadedAnon),
		restSettle, mib(rep.RestedRSS), mib(rep.RestedAnon))

	// After the memory reading above: the concurrent clones reset the peak.
	if cfg.GitIters > 0 {
		gt := gitTarget{base: srv.url, dataDir: dataDir, token: tokens[repoToken], srv: srv, quiet: func() {
			if cfg.QuietWait > 0 {
				if other, ok := waitQuiet(ctx, cfg.QuietWait); !ok {
					say("the machine is busy: other processes use %.2f cores; measuring anyway", other)
				}
			}
		}}
		if rep.Git, err = runGitBench(ctx, gt, work, cfg.GitIters, say); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			say("the Git benchmarks failed: %v", err) // reported, the suite goes on
		}
	}

	say("stopping the server")
	code, err := srv.stop()
	if err != nil {
		return err
	}
	rep.ExitCode = code

	say("go test -bench on %s", strings.Join(cfg.BenchPkgs, " "))
	args := append([]string{"test", "-run", "^$", "-bench", ".", "-benchmem"}, cfg.BenchPkgs...)
	rep.GoBench, rep.BenchErr = tee(ctx, log, cfg.Go, args...)

	for _, p := range []struct{ name, bench string }{
		{"GET /api/v1/version", "^BenchmarkVersion$/^loopback$"},
		{"GET /api/v1/user (token)", "^BenchmarkGetUserToken$/^loopback$"},
		{"GET /api/v1/repos/{owner}/{repo} (token)", "^BenchmarkGetRepoToken$/^loopback$"},
		{"GET /api/v1/repos/search?q=bench-0042&limit=10 over 10,000 (token)", "^BenchmarkSearchRepos$/^keyword$/^loopback$"},
		{"GET /api/v1/repos/search?q=bench&limit=10&sort=updated&order=desc over 10,000 (token)", "^BenchmarkSearchRepos$/^sorted$/^loopback$"},
	} {
		say("profiling the server side of %s", p.name)
		rep.Profiles = append(rep.Profiles, profileServer(ctx, cfg.Go, work, p.name, p.bench))
	}

	if err := writeReport(cfg.Out, rep); err != nil {
		return err
	}
	say("wrote %s", cfg.Out)
	if rep.BenchErr != nil {
		return fmt.Errorf("go test -bench: %w", rep.BenchErr)
	}
	if code != 0 {
		return fmt.Errorf("depot exited %d after SIGTERM", code)
	}
	return nil
}

// findWrk returns the wrk command to run, or "" with rep.WrkNote saying why
// there is none.
func findWrk(ctx context.Context, name string, rep *Report) string {
	if name == "" {
		rep.WrkNote = "wrk was switched off (-wrk ''): the loads were measured with loadgen only."
		return ""
	}
	path, err := exec.LookPath(name)
	if err != nil {
		rep.WrkNote = fmt.Sprintf("wrk is not installed (%v; `make bench` installs it with apt-get, "+
			"which failed or was not allowed): the loads were measured with loadgen only.", err)
		return ""
	}
	rep.WrkV = wrkVersion(ctx, path)
	return path
}

// measureRun waits for the machine to be quiet, then runs drive once,
// tracking the CPU the server, the driver (as drive reports it) and the
// whole machine use meanwhile. what describes the run's shape for the log.
func measureRun(ctx context.Context, cfg SuiteConfig, srv *server, name, driver, what string,
	say func(string, ...any), drive func() (LoadResult, time.Duration, error)) (Run, error) {
	if cfg.QuietWait > 0 {
		if other, ok := waitQuiet(ctx, cfg.QuietWait); !ok {
			say("the machine is busy: other processes use %.2f cores; measuring anyway", other)
		}
	}
	say("load: %s with %s, %s", name, driver, what)
	run := Run{Name: name, Driver: driver, LoadAvg: readLoadAvg()}
	srvCPU0, _ := srv.cpu()
	busy0, steal0 := machineCPU()
	res, driverCPU, err := drive()
	if err != nil {
		return run, err
	}
	busy1, steal1 := machineCPU()
	srvCPU1, _ := srv.cpu()
	run.Result, run.DriverCPU = res, driverCPU
	run.ServerCPU, run.MachineCPU, run.StealCPU = srvCPU1-srvCPU0, busy1-busy0, steal1-steal0
	e := res.Elapsed
	say("%s: %.0f req/s; server used %.2f cores, %s %.2f, other processes %.2f, steal %.2f (load average before: %s)",
		driver, res.RPS, cores(run.ServerCPU, e), driver, cores(run.DriverCPU, e), cores(run.OtherCPU(), e),
		cores(run.StealCPU, e), run.LoadAvg)
	return run, nil
}

// tee runs a command, copying its output to log, and returns the output.
func tee(ctx context.Context, log io.Writer, name string, args ...string) (string, error) {
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout = io.MultiWriter(&buf, log)
	cmd.Stderr = cmd.Stdout
	cmd.Env = withoutDepotEnv(os.Environ())
	err := cmd.Run()
	return buf.String(), err
}

// output runs a command and returns its standard output ("" on failure).
func output(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// withoutDepotEnv drops DEPOT_ settings and GOMAXPROCS, so the user's
// environment cannot change what is measured.
func withoutDepotEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DEPOT_") && !strings.HasPrefix(kv, "GOMAXPROCS=") {
			out = append(out, kv)
		}
	}
	return out
}

// freeLoopbackAddr is a 127.0.0.1 port nobody listened on a moment ago.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
