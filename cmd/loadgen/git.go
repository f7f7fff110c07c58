package main

// The Git transport benchmarks: clone and push of a 5,000-commit, 20 MB
// repository over smart HTTP against the real server (its push hooks run
// bin/depot-hook, which `make build` puts next to bin/depot), each against
// the same operation by the same git over file:// — the floor, git with no
// network, no HTTP and no hooks (for the clone, `git clone --no-local` of
// the server's own bare repository); and the server's resident memory while
// 20 clones run at once.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The benchmark repository: gitCommits commits on main, each rewriting one
// of gitFiles files with gitFileSize bytes of incompressible data, so the
// pack holds about gitCommits × gitFileSize bytes (20 MB) that neither delta
// compression nor zlib can shrink.
const (
	gitCommits  = 5000
	gitFiles    = 100
	gitFileSize = 4096
	// gitConcurrent is how many clones run at once for the memory target.
	gitConcurrent = 20
	// gitCloneTurns is how many clone samples each iteration takes: the
	// clone's target is tight (5%), and a clone is quick.
	gitCloneTurns = 3
	// gitRepo is the repository the clones read; the pushes go to
	// gitPushRepo(i), each new and empty.
	gitRepo = "git-bench"
)

func gitPushRepo(i int) string { return fmt.Sprintf("git-push-%02d", i) }

// The Git targets, and Gitea 1.27.3's figures on this kind of machine.
const (
	// targetCloneRatio: `git clone` over HTTP within 1.05× of `git clone
	// --no-local` of the same bare repository, the floor.
	targetCloneRatio = 1.05
	targetPushRatio  = 1.2         // a push over HTTP within 1.2× of one to file://
	targetGitRSS     = 200_000_000 // bytes (decimal MB) while gitConcurrent clones run

	giteaGitClone = "1.07× its floor"
	giteaGitPush  = "~0.8 s"
	giteaGitRSS   = "n/a"
)

// GitBench is what the Git benchmarks measured.
type GitBench struct {
	Iterations int
	// Build is how long git fast-import took to write the source
	// repository; PackBytes is the size of the server's packs after the
	// first push, Objects the object count.
	Build     time.Duration
	PackBytes int64
	Objects   int
	// Housekept is how long after the first push the server's
	// housekeeping had packed the repository with its bitmap (0: it had
	// not within gitHousekeepingWait).
	Housekept time.Duration
	// One sample per iteration, each operation alternating with its floor.
	CloneHTTP, CloneFile []time.Duration
	PushHTTP, PushFile   []time.Duration
	// CloneHTTPCPU and CloneFileCPU are the user+system time of every
	// process of each clone sample: the client's git, and the server with
	// the git it ran (over HTTP) or the client's own upload-pack (the floor).
	// Other processes' use of the CPUs does not count in them.
	CloneHTTPCPU, CloneFileCPU []time.Duration
	// CloneFirst and CloneFirstCPU are clones the server has no answer kept
	// for (each asks with its own server option, so its request is new):
	// git packs, as for the first clone at new refs. CloneHTTP clones are
	// the same request again, answered from the pack cache once kept (from
	// the second time it is asked for).
	CloneFirst, CloneFirstCPU []time.Duration
	// CloneReplay and CloneReplayCPU are the same clone served from a
	// recording of the server's answers (git_recording.go): what HTTP
	// costs the client, with no server work.
	CloneReplay, CloneReplayCPU []time.Duration
	// Clones, Pushes and Many are how the machine's CPUs were used during
	// the clone samples, the push samples and the concurrent clones.
	Clones, Pushes, Many GitCPU
	// Concurrent is the run of gitConcurrent clones at once.
	Concurrent GitConcurrent
	// Err is why the benchmarks stopped early, "" when they ran through.
	Err string
}

// GitConcurrent is the memory run.
type GitConcurrent struct {
	Clones   int
	Elapsed  time.Duration
	Failures int
	// PeakRSS is the server's VmHWM over the run (reset with
	// /proc/<pid>/clear_refs before it when HWMReset; else the sampled
	// maximum of VmRSS, SampledRSS); ChildrenRSS is the largest sampled sum
	// of the RSS of the server's child processes (git upload-pack and
	// pack-objects), which are not the service's but are the machine's.
	PeakRSS, SampledRSS, ChildrenRSS int64
	// PeakAnon is the largest sampled RssAnon: the server's own memory,
	// without the mapped files (its executable, pack files libgit2 maps)
	// that VmRSS also counts.
	PeakAnon int64
	HWMReset bool
}

// GitCPU is the CPU time used during one phase of the Git benchmarks:
// by the whole machine, by the server with the git processes it ran, and by
// the benchmark's own git processes; the rest is other processes'.
type GitCPU struct {
	Elapsed                 time.Duration
	Machine, Server, Client time.Duration
}

// Other is the CPU time of processes that are neither the server's nor
// the benchmark's.
func (c GitCPU) Other() time.Duration { return max(c.Machine-c.Server-c.Client, 0) }

// measureGitCPU runs phase and returns the CPU time the machine, the server
// (with its finished children) and this process's finished children used.
func measureGitCPU(pid int, phase func() error) (GitCPU, error) {
	m0, _ := machineCPU()
	s0, c0 := treeCPU(pid), childrenCPU()
	start := time.Now()
	err := phase()
	c := GitCPU{Elapsed: time.Since(start)}
	m1, _ := machineCPU()
	c.Machine, c.Server, c.Client = m1-m0, treeCPU(pid)-s0, childrenCPU()-c0
	return c, err
}

// median of samples, 0 for none.
func median(samples []time.Duration) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ratio is the HTTP median over the file:// median, 0 when either is missing.
func ratio(overHTTP, file []time.Duration) float64 {
	f := median(file)
	if f == 0 || len(overHTTP) == 0 {
		return 0
	}
	return float64(median(overHTTP)) / float64(f)
}

// gitTarget is where the Git benchmarks run: the server's base URL, its
// data directory (for the file:// floor of the clone), a token that may
// create repositories and push, and the server process for its memory.
type gitTarget struct {
	base, dataDir, token string
	srv                  *server
	// quiet waits for other processes to leave the CPUs alone before
	// each phase (nil: no wait).
	quiet func()
}

// runGitBench runs the Git benchmarks in work (a scratch directory) with
// iters samples of each operation. A failure part way is returned with what
// was measured until then.
func runGitBench(ctx context.Context, t gitTarget, work string, iters int, say func(string, ...any)) (*GitBench, error) {
	gb := &GitBench{Iterations: iters}
	err := gb.run(ctx, t, work, say)
	if err != nil {
		gb.Err = err.Error()
	}
	return gb, err
}

func (gb *GitBench) run(ctx context.Context, t gitTarget, work string, say func(string, ...any)) error {
	src := filepath.Join(work, "git-src.git")
	say("git: writing a %d-commit repository with git fast-import", gitCommits)
	start := time.Now()
	if err := gitBuildRepo(ctx, src); err != nil {
		return err
	}
	gb.Build = time.Since(start)
	a := newAPI(t.base, t.token, 1)
	if err := gitCreateRepo(ctx, a, gitRepo); err != nil {
		return err
	}
	remote := t.base + "/admin/" + gitRepo + ".git"
	say("git: first push into %s", remote)
	if _, err := gitTimed(ctx, src, t.token, "push", "-q", remote, "main"); err != nil {
		return err
	}
	stored := filepath.Join(t.dataDir, "repos", "admin", gitRepo+".git")
	// The clones read the repository as the server keeps it: packed with
	// its bitmap by the housekeeping the push queued.
	say("git: waiting for the server's housekeeping of %s", gitRepo)
	var err error
	if gb.Housekept, err = gitWaitHousekept(ctx, stored, gitHousekeepingWait); err != nil {
		say("git: %v; the clones read the repository as pushed", err)
	}
	if gb.PackBytes, gb.Objects, err = gitPackStats(ctx, stored); err != nil {
		return err
	}
	say("git: the server's copy holds %d objects in %s of packs", gb.Objects, mb(gb.PackBytes))

	// Clones, with a work tree: a warm-up of each (page cache, the
	// server's first-use work), then the samples, HTTP and the floor taking
	// turns. The floor is `git clone --no-local` of the server's bare
	// repository: git's own upload-pack over a pipe, what the server runs
	// without HTTP in between.
	pid := t.srv.cmd.Process.Pid
	clone := func(cpu *time.Duration, args ...string) (time.Duration, error) {
		dst, err := os.MkdirTemp(work, "clone-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dst)
		s0, c0 := treeCPU(pid), childrenCPU()
		d, err := gitTimed(ctx, work, "", append(append([]string{"clone", "-q"}, args...), filepath.Join(dst, "c"))...)
		*cpu = treeCPU(pid) - s0 + childrenCPU() - c0
		return d, err
	}
	// The third of each turn replays a recording of the server's answers
	// (git_recording.go): HTTP with no server work.
	say("git: recording the answers of one clone, to replay them with no server work")
	rec, err := recordClone(ctx, work, t.base, remote)
	if err != nil {
		return err
	}
	replayBase, stopReplay, err := rec.serve()
	if err != nil {
		return err
	}
	defer stopReplay()
	var hCPU, fCPU, rCPU, nCPU time.Duration
	overHTTP := func() (time.Duration, error) { return clone(&hCPU, remote) }
	firsts := 0
	firstHTTP := func() (time.Duration, error) {
		firsts++
		return clone(&nCPU, "--server-option=depot-bench-first-"+strconv.Itoa(firsts), remote)
	}
	floor := func() (time.Duration, error) { return clone(&fCPU, "--no-local", stored) }
	replayed := func() (time.Duration, error) { return clone(&rCPU, replayBase+strings.TrimPrefix(remote, t.base)) }
	for _, warm := range []func() (time.Duration, error){overHTTP, floor, replayed, firstHTTP} {
		if _, err := warm(); err != nil {
			return err
		}
	}
	t.wait()
	gb.Clones, err = measureGitCPU(pid, func() error {
		for i := range gb.Iterations * gitCloneTurns {
			d, err := rotated(i, overHTTP, floor, replayed, firstHTTP)
			if err != nil {
				return err
			}
			h, f, r, n := d[0], d[1], d[2], d[3]
			gb.CloneFirst, gb.CloneFirstCPU = append(gb.CloneFirst, n), append(gb.CloneFirstCPU, nCPU)
			gb.CloneHTTP, gb.CloneFile = append(gb.CloneHTTP, h), append(gb.CloneFile, f)
			gb.CloneHTTPCPU, gb.CloneFileCPU = append(gb.CloneHTTPCPU, hCPU), append(gb.CloneFileCPU, fCPU)
			gb.CloneReplay, gb.CloneReplayCPU = append(gb.CloneReplay, r), append(gb.CloneReplayCPU, rCPU)
			say("git: clone %d: HTTP %s (CPU %s), first %s (CPU %s), --no-local %s (CPU %s), recording %s (CPU %s)",
				i+1, secs(h), secs(hCPU), secs(n), secs(nCPU), secs(f), secs(fCPU), secs(r), secs(rCPU))
		}
		return nil
	})
	if err != nil {
		return err
	}

	// Pushes: each into a new empty repository, on the server over HTTP
	// and, for the floor, into a bare repository git init made.
	t.wait()
	gb.Pushes, err = measureGitCPU(pid, func() error {
		for i := range gb.Iterations {
			name := gitPushRepo(i)
			if err := gitCreateRepo(ctx, a, name); err != nil {
				return err
			}
			floor := filepath.Join(work, name+".git")
			if _, err := gitTimed(ctx, work, "", "init", "-q", "--bare", floor); err != nil {
				return err
			}
			h, f, err := inTurn(i, func() (time.Duration, error) {
				return gitTimed(ctx, src, t.token, "push", "-q", t.base+"/admin/"+name+".git", "main")
			}, func() (time.Duration, error) {
				return gitTimed(ctx, src, "", "push", "-q", "file://"+floor, "main")
			})
			_ = os.RemoveAll(floor)
			if err != nil {
				return err
			}
			// The housekeeping this push queued (a git gc of 22 MB, seconds
			// later) would run during a later sample: the repository goes
			// before it is due, and the job finds nothing to do. (Waiting
			// for it instead leaves the server idle between samples, long
			// enough to hand its memory back: each push would start cold.)
			if err := gitDeleteRepo(ctx, a, name); err != nil {
				return err
			}
			gb.PushHTTP, gb.PushFile = append(gb.PushHTTP, h), append(gb.PushFile, f)
			say("git: push %d: HTTP %s, file:// %s", i+1, secs(h), secs(f))
		}
		return nil
	})
	if err != nil {
		return err
	}

	say("git: %d clones at once", gitConcurrent)
	t.wait()
	gb.Many, _ = measureGitCPU(pid, func() error {
		gb.Concurrent = gitConcurrentClones(ctx, t.srv, work, remote)
		return nil
	})
	c := gb.Concurrent
	say("git: %d clones in %s, %d failed; server peak RSS %s, its git children at most %s together",
		c.Clones, secs(c.Elapsed), c.Failures, mb(c.PeakRSS), mb(c.ChildrenRSS))
	if c.Failures > 0 {
		return fmt.Errorf("%d of %d concurrent clones failed", c.Failures, c.Clones)
	}
	return nil
}

// wait waits for a quiet machine when the target says how.
func (t gitTarget) wait() {
	if t.quiet != nil {
		t.quiet()
	}
}

// gitConcurrentClones runs gitConcurrent clones of remote at once and reads
// the server's peak resident memory meanwhile. Each asks with its own
// server option, so that none is answered from the server's pack cache:
// the server's git packs for every one, the load the memory target is for.
func gitConcurrentClones(ctx context.Context, srv *server, work, remote string) GitConcurrent {
	res := GitConcurrent{Clones: gitConcurrent}
	pid := srv.cmd.Process.Pid
	// Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+),
	// so the peak read afterwards is this run's, not the load runs'.
	res.HWMReset = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0) == nil
	stop := make(chan struct{})
	sampled := make(chan [3]int64)
	go func() {
		var self, anon, children int64
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			st := procStatus(pid)
			self, anon = max(self, st["VmRSS"]), max(anon, st["RssAnon"])
			children = max(children, childrenRSS(pid))
			select {
			case <-stop:
				sampled <- [3]int64{self, anon, children}
				return
			case <-tick.C:
			}
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := time.Now()
	for i := range gitConcurrent {
		wg.Go(func() {
			dst, err := os.MkdirTemp(work, "many-")
			if err == nil {
				defer os.RemoveAll(dst)
				_, err = gitTimed(ctx, work, "", "clone", "-q", "--bare", "--server-option=depot-bench-many-"+strconv.Itoa(i),
					remote, filepath.Join(dst, "c.git"))
			}
			if err != nil {
				mu.Lock()
				res.Failures++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	close(stop)
	s := <-sampled
	res.SampledRSS, res.PeakAnon, res.ChildrenRSS = s[0], s[1], s[2]
	_, peak := srv.memory()
	res.PeakRSS = max(s[0], peak)
	if !res.HWMReset {
		res.PeakRSS = s[0]
	}
	return res
}

// gitBuildRepo writes the benchmark repository into a new bare repository
// at dir with git fast-import: deterministic content, fixed dates.
func gitBuildRepo(ctx context.Context, dir string) error {
	if _, err := gitTimed(ctx, filepath.Dir(dir), "", "init", "-q", "--bare", "-b", "main", dir); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Env = gitEnv("")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	rng := rand.NewChaCha8([32]byte{'d', 'e', 'p', 'o', 't'})
	data := make([]byte, gitFileSize)
	for i := range gitCommits {
		_, _ = rng.Read(data)
		msg := fmt.Sprintf("commit %04d", i)
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter bench <bench@bench.invalid> %d +0000\ndata %d\n%s\n",
			1700000000+i, len(msg), msg)
		fmt.Fprintf(w, "M 644 inline f%02d.bin\ndata %d\n", i%gitFiles, len(data))
		_, _ = w.Write(data)
		_ = w.WriteByte('\n')
	}
	werr := w.Flush()
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, stderr.String())
	}
	return werr
}

// gitPackStats is the total size of dir's packs and its object count.
func gitPackStats(ctx context.Context, dir string) (int64, int, error) {
	packs, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "*.pack"))
	if err != nil {
		return 0, 0, err
	}
	var size int64
	for _, p := range packs {
		if fi, err := os.Stat(p); err == nil {
			size += fi.Size()
		}
	}
	out, err := exec.CommandContext(ctx, "git", "--git-dir="+dir, "count-objects", "-v").Output()
	if err != nil {
		return size, 0, fmt.Errorf("git count-objects: %w", err)
	}
	n := 0
	for line := range strings.SplitSeq(string(out), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		if k == "count" || k == "in-pack" {
			x, _ := strconv.Atoi(v)
			n += x
		}
	}
	return size, n, nil
}

// gitCreateRepo makes an empty public repository of the token's user.
func gitCreateRepo(ctx context.Context, a *api, name string) error {
	code, _, data, err := a.do(ctx, http.MethodPost, "/api/v1/user/repos", []byte(`{"name":"`+name+`"}`))
	if err != nil {
		return err
	}
	if code != http.StatusCreated {
		return fmt.Errorf("creating %s: HTTP %d: %.200s", name, code, data)
	}
	return nil
}

// gitDeleteRepo deletes the token's user's repository name.
func gitDeleteRepo(ctx context.Context, a *api, name string) error {
	code, _, data, err := a.do(ctx, http.MethodDelete, "/api/v1/repos/admin/"+name, nil)
	if err != nil {
		return err
	}
	if code != http.StatusNoContent {
		return fmt.Errorf("deleting %s: HTTP %d: %.200s", name, code, data)
	}
	return nil
}

// gitTimed runs git in dir and returns how long it took; token, when set,
// is sent as an Authorization header (through the environment: argv is
// readable by every local user).
func gitTimed(ctx context.Context, dir, token string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(token)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return took, ctx.Err()
		}
		return took, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return took, nil
}

// gitEnv is a clean environment for the benchmark's git: no system or
// user configuration (which could turn on a credential helper, a proxy or
// fsck on transfer on one side only), no prompts.
func gitEnv(token string) []string {
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "GIT_") && !strings.HasPrefix(k, "DEPOT_") && k != "LC_ALL" &&
			!strings.HasSuffix(strings.ToLower(k), "_proxy") {
			env = append(env, kv)
		}
	}
	if token != "" {
		env = append(env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.extraHeader",
			"GIT_CONFIG_VALUE_0=Authorization: token "+token)
	}
	return env
}

// secs renders a duration in seconds with milliseconds.
func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

// RunGitOnly is `loadgen -git-bench`: it starts depot on a fresh data
// directory, runs the Git benchmarks alone (waiting up to quietWait for a
// quiet machine before each phase) and prints their section of the report
// to out — for working on the transport without the whole suite.
func RunGitOnly(ctx context.Context, depot string, iters int, quietWait time.Duration, out, log io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(log, "bench: "+format+"\n", args...) }
	work, err := os.MkdirTemp("", "depot-gitbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dataDir := filepath.Join(work, "data")
	srv, err := startServer(ctx, depot, dataDir, filepath.Join(work, "depot.log"))
	if err != nil {
		return err
	}
	defer srv.kill()
	password, err := srv.adminPassword()
	if err != nil {
		return err
	}
	token, err := createToken(ctx, srv.url, "admin", password, "bench-git", "write:repository", "read:user")
	if err != nil {
		return err
	}
	quiet := func() {
		if quietWait > 0 {
			if other, ok := waitQuiet(ctx, quietWait); !ok {
				say("the machine is busy: other processes use %.2f cores; measuring anyway", other)
			}
		}
	}
	gb, err := runGitBench(ctx, gitTarget{base: srv.url, dataDir: dataDir, token: token, srv: srv, quiet: quiet},
		work, iters, say)
	var b strings.Builder
	writeGit(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }, &Report{Git: gb, Machine: readMachine()})
	fmt.Fprint(out, b.String())
	if code, serr := srv.stop(); serr != nil || code != 0 {
		err = errors.Join(err, fmt.Errorf("depot exited %d after SIGTERM: %v", code, serr))
	}
	return err
}
