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
	targetIdleRSS    = 40_000_000 // bytes (decimal MB)
	targetFirstReply = 300 * time.Millisecond

	giteaVersionRPS = "~36,000 req/s"
	giteaTokenRPS   = "~200 req/s"
	giteaIdleRSS    = "~180 MB"
	giteaFirstReply = "2.5 s"
)

// writeReport renders rep as docs/benchmarks.md.
func writeReport(path string, rep *Report) error {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	m := rep.Machine

	w("# Benchmarks\n\n")
	w("Written by `make bench` (`bin/loadgen -suite`, see `cmd/loadgen`) on %s. Every number below was\n", rep.When.Format("2006-01-02 15:04 MST"))
	w("measured in that run; re-run `make bench` to refresh the page.\n\n")

	w("## Machine\n\n")
	w("| | |\n|---|---|\n")
	w("| CPUs (`nproc`) | %d |\n", m.CPUs)
	w("| CPU model | %s |\n", orNA(m.CPUModel))
	w("| Memory | %.1f GiB |\n", float64(m.MemTotal)/(1<<30))
	w("| Kernel | %s |\n", orNA(m.Kernel))
	w("| Go | %s |\n", orNA(rep.GoVer))
	w("| Depot | %s |\n", orNA(rep.DepotV))
	w("| Database | embedded SQLite (WAL) in a temporary data directory |\n\n")
	w("The load generator runs on the same machine as the server and competes with it for the same %d CPUs;\n", m.CPUs)
	w("the CPU table below shows how the machine was shared, including with any other processes.\n\n")

	w("## Against the targets\n\n")
	w("| Measure | Depot | Target | Gitea 1.27.3, for scale | Verdict |\n|---|---|---|---|---|\n")
	ver, tok := rep.run(0), rep.run(1)
	w("| GET /api/v1/version, %d connections | %s req/s | ≥ %s req/s | %s | %s |\n",
		ver.Result.Connections, thousands(ver.Result.RPS), thousands(targetVersionRPS), giteaVersionRPS,
		verdict(ver.Result.RPS >= targetVersionRPS && ver.clean()))
	w("| GET /api/v1/user with a token, %d connections | %s req/s | ≥ %s req/s | %s | %s |\n",
		tok.Result.Connections, thousands(tok.Result.RPS), thousands(targetTokenRPS), giteaTokenRPS,
		verdict(tok.Result.RPS >= targetTokenRPS && tok.clean()))
	idle := max(rep.FreshRSS, rep.RestartRSS)
	w("| Idle RSS after start (larger of the two starts) | %s | < 40 MB | %s | %s |\n", mb(idle), giteaIdleRSS,
		verdict(idle > 0 && idle < targetIdleRSS))
	w("| Process start to first answer (fresh data directory) | %s | < 300 ms | %s | %s |\n\n",
		msec(rep.FreshStart), giteaFirstReply, verdict(rep.FreshStart < targetFirstReply))
	w("MB is 10⁶ bytes. A run only meets its target with no transport errors and no non-2xx answers.\n\n")

	w("## Load runs\n\n")
	w("Closed loop: each connection sends its next request as soon as the previous answer is read. Each run\n")
	w("follows an uncounted warm-up on the same connections.\n\n")
	w("| Request | Conns | Time | Requests | req/s | p50 | p90 | p99 | max | Errors | Non-2xx |\n")
	w("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rep.Runs {
		x := r.Result
		w("| %s | %d | %.1f s | %d | %s | %s | %s | %s | %s | %d | %d |\n",
			r.Name, x.Connections, x.Elapsed.Seconds(), x.Requests, thousands(x.RPS), ms(x.P50), ms(x.P90), ms(x.P99),
			ms(x.Max), x.Errors, x.Non2xx)
	}
	w("\nHow the %d CPUs were shared during each run (cores busy on average):\n\n", m.CPUs)
	w("| Request | Server | loadgen | Other processes | Stolen by the hypervisor | Load average before |\n")
	w("|---|---|---|---|---|---|\n")
	for _, r := range rep.Runs {
		e := r.Result.Elapsed
		w("| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", r.Name, cores(r.ServerCPU, e), cores(r.LoadgenCPU, e),
			cores(r.OtherCPU(), e), cores(r.StealCPU, e), orNA(r.LoadAvg))
	}
	w("\nWhat one request cost each side, and what one fully busy core would serve at that cost:\n\n")
	w("| Request | Server CPU per request | Requests per server core-second | loadgen CPU per request |\n")
	w("|---|---|---|---|\n")
	for _, r := range rep.Runs {
		n := r.Result.Requests
		if n == 0 || r.ServerCPU == 0 {
			w("| %s | n/a | n/a | n/a |\n", r.Name)
			continue
		}
		w("| %s | %.1f µs | %s | %.1f µs |\n", r.Name, us(r.ServerCPU, n),
			thousands(float64(n)/r.ServerCPU.Seconds()), us(r.LoadgenCPU, n))
	}
	w("\nCPU times come from `/proc/<pid>/stat` (10 ms ticks) and `getrusage`.\n")
	for _, r := range rep.Runs {
		if r.Result.FirstError != "" {
			w("\n%s: first failure: `%s`\n", r.Name, r.Result.FirstError)
		}
	}
	w("\n")

	w("## Start-up and memory\n\n")
	w("| | First answer | Idle RSS (%s after) |\n|---|---|---|\n", idleSettle)
	w("| Fresh start: schema created, administrator's Argon2id hash computed | %s | %s |\n", msec(rep.FreshStart), mb(rep.FreshRSS))
	w("| Restart on the same data directory | %s | %s |\n\n", msec(rep.Restart), mb(rep.RestartRSS))
	w("After the load runs the server's RSS was %s (peak %s). It exited with status %d on SIGTERM.\n\n",
		mb(rep.LoadedRSS), mb(rep.PeakRSS), rep.ExitCode)
	w("\"First answer\" runs from just before the process is started until `GET /api/v1/version` first answers\n")
	w("200, polled every millisecond; RSS is `VmRSS` from `/proc/<pid>/status`.\n\n")

	w("## Where the server's time goes\n\n")
	w("The server binary has no profiling endpoint, so each request type is profiled in process: the\n")
	w("`adapters/http` loopback benchmark (the assembled service on SQLite, 32 keep-alive connections over\n")
	w("127.0.0.1), with the CPU profile focused on the server's connection goroutines\n")
	w("(`-focus='%s'`); the client half and the garbage collector's background workers are left out.\n\n", serverFocus)
	w("| Request | Depot's handler (`adapters/http.(*Server).ServeHTTP`) | System calls | net/http, runtime and the rest |\n")
	w("|---|---|---|---|\n")
	for _, p := range rep.Profiles {
		if p.Depot == 0 && p.Syscalls == 0 {
			w("| %s | n/a | n/a | n/a |\n", p.Name)
			continue
		}
		w("| %s | %.0f %% | %.0f %% | %.0f %% |\n", p.Name, p.Depot, p.Syscalls, max(0, 100-p.Depot-p.Syscalls))
	}
	w("\nShares are of the server goroutines' CPU time.\n\n")
	for _, p := range rep.Profiles {
		w("%s (`%s`), `go tool pprof -top -cum`:\n\n", p.Name, p.Bench)
		w("```\n%s\n```\n\n", strings.TrimRight(p.Top, "\n"))
	}

	w("## Go benchmarks\n\n")
	w("`go test -run '^$' -bench . -benchmem ./adapters/http/ ./app/auth/ ./adapters/sqlstore/`")
	if rep.BenchErr != nil {
		w(" — **failed: %v**", rep.BenchErr)
	}
	w(":\n\n```\n%s\n```\n\n", strings.TrimRight(rep.GoBench, "\n"))

	w("## Method\n\n")
	w("- `bin/depot serve --listen 127.0.0.1:<free port> --data-dir <temp> --log-level warn`, started twice: on an\n")
	w("  empty data directory, then again on the same one.\n")
	w("- The administrator's password is read from the server's log; a `read:user` token is created with Basic auth.\n")
	w("- `loadgen` keeps the connections busy with a keep-alive `net/http` client (one idle connection per\n")
	w("  worker) and drives loopback addresses only.\n")
	w("- The Gitea figures are Gitea 1.27.3's, quoted for scale; they were not measured on this machine.\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// run returns the i-th load run, or an empty one.
func (rep *Report) run(i int) Run {
	if i < len(rep.Runs) {
		return rep.Runs[i]
	}
	return Run{}
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

func orNA(s string) string {
	if s == "" {
		return "n/a"
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
