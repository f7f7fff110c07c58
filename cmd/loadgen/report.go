package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// The targets Depot is held to, and Gitea 1.27.3's figures for scale.
const (
	targetVersionRPS = 30000
	targetTokenRPS   = 15000
	targetRepoRPS    = 10000
	targetSearchP50  = 5 * time.Millisecond
	targetContentRPS = 5000
	targetCreateP50  = 30 * time.Millisecond
	targetIdleRSS    = 40_000_000 // bytes (decimal MB)
	targetLoadedRSS  = 80_000_000 // bytes, after the load runs
	targetFirstReply = 300 * time.Millisecond

	giteaVersionRPS = "~36,000 req/s"
	giteaTokenRPS   = "~200 req/s"
	giteaRepoRPS    = "~200 req/s"
	giteaSearch     = "~100 req/s, p50 ~190 ms"
	giteaContentRPS = "~100 req/s"
	giteaCreate     = "~35/s"
	giteaIdleRSS    = "~180 MB"
	giteaLoadedRSS  = "~218 MB"
	giteaFirstReply = "2.5 s"
)

// writeReport renders rep as docs/benchmarks.md.
func writeReport(path string, rep *Report) error {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	m := rep.Machine

	w("# Benchmarks\n\n")
	w("Written by `make bench` (`bin/loadgen -suite`, see `cmd/loadgen`) on %s. Every number below was\n", rep.When.Format("2006-01-02 15:04 MST"))
	w("measured in that run; re-run `make bench` to refresh the page. The source is the commit checked out when\n")
	w("the run started, with whatever uncommitted changes the work tree held then.\n\n")

	w("## Machine\n\n")
	w("| | |\n|---|---|\n")
	w("| CPUs (`nproc`) | %d |\n", m.CPUs)
	w("| CPU model | %s |\n", orNA(m.CPUModel))
	w("| Memory | %.1f GiB |\n", float64(m.MemTotal)/(1<<30))
	w("| Kernel | %s |\n", orNA(m.Kernel))
	w("| Go | %s |\n", orNA(rep.GoVer))
	w("| Depot | %s |\n", orNA(rep.DepotV))
	if rep.Commit != "" {
		w("| Source | commit %s |\n", rep.Commit)
	}
	w("| Database | embedded SQLite (WAL) in a temporary data directory |\n")
	w("| wrk | %s |\n\n", orValue(rep.WrkV, "not used"))
	w("The load drivers, `loadgen` and `wrk`, run on the same machine as the server and compete with it for\n")
	w("the same %d CPUs; the CPU tables below show how the machine was shared, including with any other processes.\n\n", m.CPUs)

	writeTargets(w, rep)
	writeLoadRuns(w, rep)
	w("## Start-up and memory\n\n")
	w("| | First answer | Idle RSS (%s after) | Of which its own (RssAnon) |\n|---|---|---|---|\n", idleSettle)
	w("| Fresh start: schema created, administrator's Argon2id hash computed | %s | %s | %s |\n",
		msec(rep.FreshStart), mb(rep.FreshRSS), mb(rep.FreshAnon))
	w("| Restart on the same data directory | %s | %s | %s |\n\n", msec(rep.Restart), mb(rep.RestartRSS), mb(rep.RestartAnon))
	w("After %d password sign-ins at once (Basic auth, each an Argon2id verification) and %s at rest, the RSS was %s (its own %s).\n",
		signInBurst, restSettle, mb(rep.SignInRSS), mb(rep.SignInAnon))
	w("Just after the load runs the server's RSS was %s (its own %s; peak %s), and %s later, at rest, %s (its own %s).\n",
		mb(rep.LoadedRSS), mb(rep.LoadedAnon), mb(rep.PeakRSS), restSettle, mb(rep.RestedRSS), mb(rep.RestedAnon))
	w("It exited with status %d on SIGTERM.\n\n", rep.ExitCode)
	w("\"First answer\" runs from just before the process is started until `GET /api/v1/version` first answers\n")
	w("200, polled every millisecond; RSS is `VmRSS` from `/proc/<pid>/status`, and counts the pages of the\n")
	w("executable the process has touched: the kernel maps a file's cached pages in large folios (up to 2 MB\n")
	w("each here), so a touch anywhere in one counts all of it. `RssAnon` is the memory that is the process's own.\n")
	w("At its first quiet moment after start-up, and after each burst of requests, the server unmaps the clean\n")
	w("pages of its executable (and after start-up evicts them), so that the executable counts what it uses.\n\n")

	w("## Where the server's time goes\n\n")
	w("The server binary has no profiling endpoint, so each request type is profiled in process: the\n")
	w("`adapters/http` loopback benchmark (the assembled service on SQLite, 32 keep-alive connections over\n")
	w("127.0.0.1), with the CPU profile focused on the server's connection goroutines and the two goroutines\n")
	w("bun starts for a listing to run its page query and its count side by side\n")
	w("(`-focus='%s'`); the client half and the garbage collector's background workers are left out.\n\n", serverFocus)
	w("| Request | Depot's handler (`adapters/http.(*Server).ServeHTTP`, with bun's listing goroutines) | System calls | net/http, runtime and the rest |\n")
	w("|---|---|---|---|\n")
	for _, p := range rep.Profiles {
		if p.Depot == 0 && p.Syscalls == 0 {
			w("| %s | n/a | n/a | n/a |\n", p.Name)
			continue
		}
		w("| %s | %.0f %% | %.0f %% | %.0f %% |\n", p.Name, p.Depot, p.Syscalls, max(0, 100-p.Depot-p.Syscalls))
	}
	w("\nShares are of the server goroutines' CPU time. System calls made inside the handler (SQLite reading\n")
	w("its file, say) count in both of the first two columns, so a row may add up to more than 100 %%.\n\n")
	for _, p := range rep.Profiles {
		w("%s (`%s`), `go tool pprof -top -cum`:\n\n", p.Name, p.Bench)
		w("```\n%s\n```\n\n", strings.TrimRight(p.Top, "\n"))
	}

	w("## Go benchmarks\n\n")
	w("`go test -run '^$' -bench . -benchmem ./adapters/http/ ./app/auth/ ./adapters/sqlstore/ ./adapters/libgit2/ ./adapters/markup/ ./test/`")
	if rep.BenchErr != nil {
		w(" — **failed: %v**", rep.BenchErr)
	}
	w(":\n\n```\n%s\n```\n\n", strings.TrimRight(rep.GoBench, "\n"))

	w("## Method\n\n")
	w("- `bin/depot serve --listen 127.0.0.1:<free port> --data-dir <temp> --log-level warn`, started twice: on an\n")
	w("  empty data directory, then again on the same one.\n")
	w("- The administrator's password is read from the server's log; a `read:user` token (for `/user`) and a\n")
	w("  `write:repository,read:user` token (for the repository requests) are created with Basic auth, and the\n")
	w("  administrator creates the ordinary user `%s`, who makes a `write:repository,read:user` token of its own.\n", otherUser)
	w("- Before the loads, the repositories are created through the API as described under the targets: the\n")
	w("  timed batches with `auto_init`, then plain ones up to the total the search loads run over.\n")
	w("- `loadgen` keeps the connections busy with a keep-alive `net/http` client (one idle connection per\n")
	w("  worker) and drives loopback addresses only.\n")
	w("- `wrk -t%d -c<conns> -d<secs>s --latency [-H 'Authorization: token …'] http://127.0.0.1:<port>/…`\n", wrkThreads)
	w("  follows loadgen's run of each load, after the same wait for a quiet machine, on the server the\n")
	w("  suite started; it is only ever given that loopback IP address.\n")
	w("- The Gitea figures are Gitea 1.27.3's, quoted for scale; they were not measured on this machine.\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// printer appends formatted text to the report.
type printer func(format string, args ...any)

// writeTargets is the "Against the targets" section: each load's figure by
// each driver, and the verdict of the best clean run, naming its driver;
// then the measured creations and the other measures.
func writeTargets(w printer, rep *Report) {
	w("## Against the targets\n\n")
	w("Each load is measured twice with the same connections: with `wrk` (C, epoll) and with `loadgen`\n")
	w("(Go, `net/http`). Both share the machine's CPUs with the server, so the lighter driver leaves the\n")
	w("server more of them; the verdict goes by the best of the two clean runs (the faster for a throughput\n")
	w("target, the lower median for a latency target), and names its driver.\n\n")
	if rep.WrkNote != "" {
		w("**%s**\n\n", rep.WrkNote)
	}
	w("| Load, %d connections unless named | wrk | loadgen | Target | Gitea 1.27.3, for scale | Verdict (best clean run) |\n", rep.connections())
	w("|---|---|---|---|---|---|\n")
	for _, l := range loads {
		best, ok := rep.best(l.name, l.goal)
		v := "**missed** (no clean run)"
		if ok {
			v = fmt.Sprintf("%s (%s's run)", verdict(l.met(best.Result)), best.Driver)
		}
		w("| %s | %s | %s | %s | %s | %s |\n", l.name, rep.figure(l.name, driverWrk, l.goal),
			rep.figure(l.name, driverLoadgen, l.goal), l.target(), l.gitea, v)
	}
	w("\nThe search loads run over %s repositories (see below). Under a closed loop of %d connections\n",
		thousands(float64(rep.Seed.Total)), rep.connections())
	w("a request's latency is mostly its wait for the CPUs: the median is about the connection count divided\n")
	w("by the throughput (Gitea's ~100 req/s at a p50 of ~190 ms likewise means about 19 requests in flight).\n")
	w("The 1-connection runs show the latency of one search on an otherwise idle server. The administrator\n")
	w("sees every repository; the ordinary user's searches (`%s`, who owns none) also check for each\n", otherUser)
	w("repository that the user may see it.\n\n")
	writeCreates(w, rep)
	writeGit(w, rep)
	w("| Measure | Depot | Target | Gitea 1.27.3, for scale | Verdict |\n|---|---|---|---|---|\n")
	idle := max(rep.FreshRSS, rep.RestartRSS)
	w("| Idle RSS after start (larger of the two starts) | %s | < 40 MB | %s | %s |\n", mb(idle), giteaIdleRSS,
		verdict(idle > 0 && idle < targetIdleRSS))
	w("| RSS after %d password sign-ins at once, at rest (%s after) | %s | < 40 MB | — | %s |\n", signInBurst, restSettle,
		mb(rep.SignInRSS), verdict(rep.SignInRSS > 0 && rep.SignInRSS < targetIdleRSS))
	w("| RSS after the load runs, at rest (%s after) | %s | ≤ 80 MB | %s | %s |\n", restSettle, mb(rep.RestedRSS), giteaLoadedRSS,
		verdict(rep.RestedRSS > 0 && rep.RestedRSS <= targetLoadedRSS))
	w("| Process start to first answer (fresh data directory) | %s | < 300 ms | %s | %s |\n\n",
		msec(rep.FreshStart), giteaFirstReply, verdict(rep.FreshStart < targetFirstReply))
	w("MB is 10⁶ bytes. A run is clean, and can meet its target, only with no transport errors and no error\n")
	w("answers: for `loadgen` none outside 200–299, for `wrk` none of its \"Non-2xx or 3xx responses\" (which,\n")
	w("despite the name, counts statuses of 400 and above).\n\n")
}

// writeCreates is the table of the measured repository creations.
func writeCreates(w printer, rep *Report) {
	if len(rep.Creates) == 0 {
		return
	}
	w("Repository creation through `POST /api/v1/user/repos` with `{\"auto_init\":true,\"license\":\"MIT\",\"gitignores\":\"Go\"}`\n")
	w("(a bare Git repository and an initial commit of README.md, LICENSE and .gitignore), each client sending\n")
	w("its next creation as soon as the previous one is answered; every request's latency is one sample:\n\n")
	w("| Creation | Repositories | Rate | p50 | p90 | p99 | max | Target | Gitea 1.27.3, for scale | Verdict |\n")
	w("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range rep.Creates {
		r, ok := rep.find(c.name, driverLoadgen)
		if !ok {
			w("| %s | not run | | | | | | %s | %s | **missed** (not run) |\n", c.name, c.target(), c.gitea)
			continue
		}
		x := r.Result
		v := verdict(r.clean() && c.met(x))
		if !r.clean() {
			v = fmt.Sprintf("**missed** (%d errors, %d error answers)", x.Errors, x.Non2xx)
		}
		w("| %s | %d | %.1f/s | %s | %s | %s | %s | %s | %s | %s |\n", c.name, x.Requests, x.RPS, ms(x.P50), ms(x.P90),
			ms(x.P99), ms(x.Max), c.target(), c.gitea, v)
	}
	w("\n")
	if rep.Seed.Total > 0 {
		w("The loads ran over %s repositories, all owned by `admin`: the ones above, then plain ones named\n",
			thousands(float64(rep.Seed.Total)))
		w("`bench-00000`, `bench-00001`, … created through the same API by %d clients (their run is in the\n", seedClients)
		w("tables below), %d of them with a description and %d with two topics.\n\n", rep.Seed.Described, rep.Seed.Topics)
	}
}

// target renders the goal's target for the tables.
func (g goal) target() string {
	switch {
	case g.rps > 0 && g.p50 > 0:
		return fmt.Sprintf("≥ %s req/s, p50 < %s", thousands(g.rps), shortDur(g.p50))
	case g.p50 > 0:
		return "p50 < " + shortDur(g.p50)
	}
	return "≥ " + thousands(g.rps) + " req/s"
}

// met reports whether r reaches the goal (cleanliness is the caller's).
func (g goal) met(r LoadResult) bool {
	return (g.rps == 0 || r.RPS >= g.rps) && (g.p50 == 0 || r.P50 < g.p50)
}

// latency reports whether the goal is judged by the median rather than the throughput.
func (g goal) latency() bool { return g.p50 > 0 && g.rps == 0 }

// shortDur renders a target duration: "5 ms".
func shortDur(d time.Duration) string {
	return strings.TrimSuffix(fmt.Sprintf("%g", float64(d)/float64(time.Millisecond)), ".0") + " ms"
}

// writeLoadRuns is the "Load runs" section: every run, the CPU shares
// during it, and what one request cost the server and the driver.
func writeLoadRuns(w printer, rep *Report) {
	w("## Load runs\n\n")
	w("Closed loop: each connection sends its next request as soon as the previous answer is read.\n")
	w("`loadgen`'s run follows an uncounted warm-up on the same connections; `wrk`'s follows `loadgen`'s run\n")
	w("of the same load on the warm server, over new connections. `wrk`'s percentiles are its `--latency`\n")
	w("distribution, its max the thread statistics' Max, and its errors the sum of its socket errors.\n")
	w("The creation runs (`POST /api/v1/user/repos`) make a set number of repositories instead of running\n")
	w("for a set time, without a warm-up; their connections are their clients.\n\n")
	w("| Request | Driver | Conns | Time | Requests | req/s | p50 | p90 | p99 | max | Errors | Non-2xx |\n")
	w("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rep.Runs {
		x := r.Result
		w("| %s | %s | %d | %.1f s | %d | %s | %s | %s | %s | %s | %d | %d |\n",
			r.Name, r.Driver, x.Connections, x.Elapsed.Seconds(), x.Requests, thousands(x.RPS), ms(x.P50), ms(x.P90),
			ms(x.P99), ms(x.Max), x.Errors, x.Non2xx)
	}
	w("\nHow the %d CPUs were shared during each run (cores busy on average):\n\n", rep.Machine.CPUs)
	w("| Request | Driver | Server | Driver itself | Other processes | Stolen by the hypervisor | Load average before |\n")
	w("|---|---|---|---|---|---|---|\n")
	for _, r := range rep.Runs {
		e := r.Result.Elapsed
		w("| %s | %s | %.2f | %.2f | %.2f | %.2f | %s |\n", r.Name, r.Driver, cores(r.ServerCPU, e),
			cores(r.DriverCPU, e), cores(r.OtherCPU(), e), cores(r.StealCPU, e), orNA(r.LoadAvg))
	}
	w("\nWhat one request cost each side, and what one fully busy core would serve at that cost:\n\n")
	w("| Request | Driver | Server CPU per request | Requests per server core-second | Driver CPU per request |\n")
	w("|---|---|---|---|---|\n")
	for _, r := range rep.Runs {
		n := r.Result.Requests
		if n == 0 || r.ServerCPU == 0 {
			w("| %s | %s | n/a | n/a | n/a |\n", r.Name, r.Driver)
			continue
		}
		w("| %s | %s | %.1f µs | %s | %.1f µs |\n", r.Name, r.Driver, us(r.ServerCPU, n),
			thousands(float64(n)/r.ServerCPU.Seconds()), us(r.DriverCPU, n))
	}
	w("\nThe server's CPU time comes from `/proc/<pid>/stat` (10 ms ticks), `loadgen`'s from `getrusage`,\n")
	w("`wrk`'s from the resource usage `wait4` reports when it exits.\n")
	for _, r := range rep.Runs {
		if r.Result.FirstError != "" {
			w("\n%s with %s: first failure: `%s`\n", r.Name, r.Driver, r.Result.FirstError)
		}
	}
	w("\n")
}

// connections is the load runs' connection count.
func (rep *Report) connections() int {
	if rep.Connections > 0 || len(rep.Runs) == 0 {
		return rep.Connections
	}
	return rep.Runs[0].Result.Connections
}

// find returns the load's run with the driver.
func (rep *Report) find(name, driver string) (Run, bool) {
	for _, r := range rep.Runs {
		if r.Name == name && r.Driver == driver {
			return r, true
		}
	}
	return Run{}, false
}

// best returns the load's best clean run: the one with the most requests
// per second, or with the lowest median for a latency goal.
func (rep *Report) best(name string, g goal) (Run, bool) {
	var best Run
	found := false
	for _, r := range rep.Runs {
		if r.Name != name || !r.clean() {
			continue
		}
		better := r.Result.RPS > best.Result.RPS
		if g.latency() {
			better = r.Result.P50 < best.Result.P50
		}
		if !found || better {
			best, found = r, true
		}
	}
	return best, found
}

// figure is a load's requests per second with the driver (and its median,
// for a latency goal), for the targets table.
func (rep *Report) figure(name, driver string, g goal) string {
	r, ok := rep.find(name, driver)
	if !ok {
		return "not run"
	}
	f := thousands(r.Result.RPS) + " req/s"
	if g.latency() {
		f = fmt.Sprintf("p50 %s at %s", ms(r.Result.P50), f)
	}
	if !r.clean() {
		f += fmt.Sprintf(", not clean (%d errors, %d error answers)", r.Result.Errors, r.Result.Non2xx)
	}
	return f
}

// clean reports whether every request of the run got a 2xx answer.
func (r Run) clean() bool {
	return r.Result.Requests > 0 && r.Result.Errors == 0 && r.Result.Non2xx == 0
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func orNA(s string) string { return orValue(s, "n/a") }

func orValue(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// thousands renders n rounded, with thousands separators.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// us is d per request, in microseconds.
func us(d time.Duration, n int64) float64 { return float64(d) / float64(n) / float64(time.Microsecond) }

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }

func msec(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
