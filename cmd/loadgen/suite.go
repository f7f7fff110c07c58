package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
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
}

// Report is everything the suite measured, rendered by writeReport.
type Report struct {
	When    time.Time
	Machine Machine
	GoVer   string
	DepotV  string
	WrkV    string // wrk --version, when wrk measured
	// WrkNote says why there are no wrk runs, or why some are missing.
	WrkNote string

	FreshStart, Restart  time.Duration // process start to first answer
	FreshRSS, RestartRSS int64         // VmRSS in bytes, idle after start
	LoadedRSS, PeakRSS   int64         // VmRSS and VmHWM after the load runs
	Runs                 []Run

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

// load is one request type the suite drives, and the target it is held to.
type load struct {
	name, path string
	withToken  bool    // send Authorization: token <a read:user token>
	target     float64 // requests per second
	gitea      string  // Gitea's figure, for scale
}

var loads = []load{
	{name: "GET /api/v1/version", path: "/api/v1/version", target: targetVersionRPS, gitea: giteaVersionRPS},
	{name: "GET /api/v1/user (token)", path: "/api/v1/user", withToken: true, target: targetTokenRPS, gitea: giteaTokenRPS},
}

// idleSettle is how long the server sits idle before its RSS is read.
const idleSettle = time.Second

// RunSuite runs the whole suite and writes cfg.Out. Progress goes to log.
func RunSuite(ctx context.Context, cfg SuiteConfig, log io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(log, "bench: "+format+"\n", args...) }
	rep := &Report{When: time.Now().UTC(), Machine: readMachine()}
	rep.GoVer = strings.TrimSpace(output(ctx, cfg.Go, "version"))
	rep.DepotV = strings.TrimSpace(output(ctx, cfg.Depot, "version"))

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
	say("restart: first answer after %s, idle RSS %s", rep.Restart.Round(time.Millisecond), mib(rep.RestartRSS))

	tok, err := createToken(ctx, srv.url, password)
	if err != nil {
		return err
	}
	wrk := findWrk(ctx, cfg.Wrk, rep)
	if wrk == "" {
		say("%s", rep.WrkNote)
	}
	for _, l := range loads {
		lc := LoadConfig{URL: srv.url + l.path, Method: http.MethodGet, Connections: cfg.Connections}
		if l.withToken {
			lc.Header = http.Header{"Authorization": {"token " + tok}}
		}
		if cfg.Warmup > 0 {
			lc.Duration = cfg.Warmup
			if _, err := RunLoad(ctx, lc); err != nil {
				return err
			}
		}
		lc.Duration = cfg.Duration
		run, err := measureRun(ctx, cfg, srv, l.name, driverLoadgen, say, func() (LoadResult, time.Duration, error) {
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
		run, err = measureRun(ctx, cfg, srv, l.name, driverWrk, say, func() (LoadResult, time.Duration, error) {
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
// whole machine use meanwhile.
func measureRun(ctx context.Context, cfg SuiteConfig, srv *server, name, driver string,
	say func(string, ...any), drive func() (LoadResult, time.Duration, error)) (Run, error) {
	if cfg.QuietWait > 0 {
		if other, ok := waitQuiet(ctx, cfg.QuietWait); !ok {
			say("the machine is busy: other processes use %.2f cores; measuring anyway", other)
		}
	}
	say("load: %s with %s, %d connections, %s", name, driver, cfg.Connections, cfg.Duration)
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

// server is a depot child process.
type server struct {
	cmd         *exec.Cmd
	url         string
	logPath     string
	firstAnswer time.Duration
	done        chan struct{}
	waitErr     error
}

// startServer starts depot serve on a free loopback port with log level warn
// and returns once /api/v1/version answers, timing process start to answer.
func startServer(ctx context.Context, depot, dataDir, logPath string) (*server, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(depot, "serve", "--listen", addr, "--data-dir", dataDir, "--log-level", "warn")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = withoutDepotEnv(os.Environ())
	s := &server{cmd: cmd, url: "http://" + addr, logPath: logPath, done: make(chan struct{})}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()

	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := start.Add(30 * time.Second)
	for {
		resp, err := client.Get(s.url + "/api/v1/version")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.firstAnswer = time.Since(start)
				return s, nil
			}
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("depot exited before answering (%v):\n%s", s.waitErr, log)
		case <-ctx.Done():
			s.kill()
			return nil, ctx.Err()
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			return nil, errors.New("depot did not answer within 30s")
		}
		time.Sleep(time.Millisecond) // polling resolution of the start-up time
	}
}

var passwordLine = regexp.MustCompile(`administrator account created: username admin, password (\S+)`)

// adminPassword reads the generated password from the server's log.
func (s *server) adminPassword() (string, error) {
	log, err := os.ReadFile(s.logPath)
	if err != nil {
		return "", err
	}
	m := passwordLine.FindSubmatch(log)
	if m == nil {
		return "", fmt.Errorf("no administrator password in the log:\n%s", log)
	}
	return string(m[1]), nil
}

// memory returns VmRSS and VmHWM (peak) in bytes.
func (s *server) memory() (rss, peak int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, value, _ := strings.Cut(line, ":")
		f := strings.Fields(value)
		if len(f) < 1 {
			continue
		}
		kb, _ := strconv.ParseInt(f[0], 10, 64)
		switch name {
		case "VmRSS":
			rss = kb * 1024
		case "VmHWM":
			peak = kb * 1024
		}
	}
	return rss, peak
}

// cpu returns the user+system time the server has used so far.
func (s *server) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields after it are fixed.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// stop sends SIGTERM and waits up to 20 s for the exit code.
func (s *server) stop() (int, error) {
	select {
	case <-s.done:
	default:
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return -1, err
		}
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			s.kill()
			return -1, errors.New("depot did not stop within 20s of SIGTERM")
		}
	}
	var exit *exec.ExitError
	if errors.As(s.waitErr, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, s.waitErr
}

// kill ends the process if it still runs.
func (s *server) kill() {
	select {
	case <-s.done:
	default:
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// createToken makes a read:user token for admin with Basic auth.
func createToken(ctx context.Context, base, password string) (string, error) {
	body := strings.NewReader(`{"name":"bench","scopes":["read:user"]}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/users/admin/tokens", body)
	if err != nil {
		return "", err
	}
	req.SetBasicAuth("admin", password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("creating a token: %s: %s", resp.Status, data)
	}
	var t struct {
		SHA1 string `json:"sha1"`
	}
	if err := json.Unmarshal(data, &t); err != nil || t.SHA1 == "" {
		return "", fmt.Errorf("creating a token: no secret in %s", data)
	}
	return t.SHA1, nil
}

// Profile is the server side of one request type over loopback: a CPU
// profile of an adapters/http loopback benchmark, focused on the server's
// connection goroutines (net/http.(*conn).serve).
type Profile struct {
	Name, Bench string
	// Top is go tool pprof -top -cum, or why there is none.
	Top string
	// Shares of the server's connection goroutines' CPU, in percent; zero
	// when the profile could not be read.
	Depot, Syscalls float64
}

// serverFocus selects the server's connection goroutines in a profile.
const serverFocus = `net/http\.\(\*conn\)\.serve`

// profileServer CPU-profiles one loopback benchmark of adapters/http and
// returns pprof's top list focused on the server side, with the shares of
// Depot's handler and of system calls in it.
func profileServer(ctx context.Context, goCmd, work, name, bench string) Profile {
	p := Profile{Name: name, Bench: bench}
	prof := filepath.Join(work, "cpu-"+strings.NewReplacer("/", "-", "^", "", "$", "").Replace(bench)+".pprof")
	bin := filepath.Join(work, "http.test")
	if out, err := tee(ctx, io.Discard, goCmd, "test", "-run", "^$", "-bench", bench,
		"-benchtime", "3s", "-cpuprofile", prof, "-o", bin, "./adapters/http/"); err != nil {
		p.Top = "profiling failed: " + err.Error() + "\n" + out
		return p
	}
	out, err := tee(ctx, io.Discard, goCmd, "tool", "pprof", "-top", "-cum", "-nodecount=30", "-focus="+serverFocus, bin, prof)
	if err != nil {
		p.Top = "pprof failed: " + err.Error() + "\n" + out
		return p
	}
	// Drop the lines naming files, build ids and times of this run.
	var keep []string
	cum := map[string]float64{}
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "File:") || strings.HasPrefix(line, "Build ID:") || strings.HasPrefix(line, "Time:") {
			continue
		}
		keep = append(keep, line)
		// flat flat% sum% cum cum% name
		if f := strings.Fields(line); len(f) >= 6 && strings.HasSuffix(f[4], "%") {
			if v, err := strconv.ParseFloat(strings.TrimSuffix(f[4], "%"), 64); err == nil {
				cum[strings.Join(f[5:], " ")] = v
			}
		}
	}
	p.Top = strings.Join(keep, "\n")
	if serve := cum["net/http.(*conn).serve"]; serve > 0 {
		p.Depot = 100 * cum["github.com/depothq/depot/adapters/http.(*Server).ServeHTTP"] / serve
		p.Syscalls = 100 * max(cum["syscall.Syscall"], cum["syscall.RawSyscall6"]) / serve
	}
	return p
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
