package test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
)

// httpGitBenchRepo builds a bare repository of commits commits, each
// rewriting one of 100 files with size bytes of incompressible data, with
// git fast-import, and returns its directory.
func httpGitBenchRepo(b *testing.B, commits, size int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "src.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", dir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	// Without a "from", each commit follows the branch's previous one.
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	rng := rand.NewChaCha8([32]byte{7})
	data := make([]byte, size)
	for i := range commits {
		_, _ = rng.Read(data)
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter bench <bench@example.com> %d +0000\ndata 10\ncommit %03d\n",
			1700000000+i, i%1000)
		fmt.Fprintf(w, "M 644 inline f%02d.bin\ndata %d\n", i%100, len(data))
		_, _ = w.Write(data)
		_, _ = w.WriteString("\n")
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("fast-import: %v", err)
	}
	return dir
}

// BenchmarkHTTPGitClone clones a 5,000-commit, ~20 MB repository over smart
// HTTP and, for the floor, with `git clone --no-local` of the same bare
// repository (git's own upload-pack over a pipe); VsFloor takes turns and
// reports the ratio of their medians, whose target is 1.05.
func BenchmarkHTTPGitClone(b *testing.B) {
	srv := testserver.Start(b)
	_, alice := srv.CreateUser("alice", userPassword)
	if _, _, err := alice.CreateRepo(gitea.CreateRepoOption{Name: "big"}); err != nil {
		b.Fatal(err)
	}
	src := httpGitBenchRepo(b, 5000, 4096)
	push := exec.Command("git", "push", "-q", httpGitURL(srv, "alice", "big", "alice", userPassword), "main")
	push.Dir = src
	if out, err := push.CombinedOutput(); err != nil {
		b.Fatalf("push: %v\n%s", err, out)
	}
	overHTTP := []string{srv.URL + "/alice/big.git"}
	floor := []string{"--no-local", repoDir(srv, "alice", "big")}
	clone := func(b *testing.B, args []string) time.Duration {
		dst := filepath.Join(b.TempDir(), "c")
		start := time.Now()
		if out, err := exec.Command("git", append(append([]string{"clone", "-q"}, args...), dst)...).CombinedOutput(); err != nil {
			b.Fatalf("clone: %v\n%s", err, out)
		}
		took := time.Since(start)
		_ = os.RemoveAll(dst)
		return took
	}
	b.Run("HTTP", func(b *testing.B) {
		for b.Loop() {
			clone(b, overHTTP)
		}
	})
	b.Run("File", func(b *testing.B) {
		for b.Loop() {
			clone(b, floor)
		}
	})
	// Three pairs an iteration, HTTP first in one and second in the next.
	b.Run("VsFloor", func(b *testing.B) {
		var h, f []time.Duration
		for b.Loop() {
			for i := range 3 {
				if i%2 == 1 {
					f = append(f, clone(b, floor))
				}
				h = append(h, clone(b, overHTTP))
				if i%2 == 0 {
					f = append(f, clone(b, floor))
				}
			}
		}
		mh, mf := httpGitMedian(h), httpGitMedian(f)
		b.ReportMetric(mh.Seconds(), "http-s")
		b.ReportMetric(mf.Seconds(), "floor-s")
		b.ReportMetric(float64(mh)/float64(mf), "x-floor")
	})
	// Twenty clones at once; the peak resident memory of this process (the
	// service and the test, not the git children) is reported in MiB.
	b.Run("HTTP20", func(b *testing.B) {
		for b.Loop() {
			var wg sync.WaitGroup
			for range 20 {
				dst := filepath.Join(b.TempDir(), "c")
				wg.Go(func() {
					if out, err := exec.Command("git", "clone", "-q", "--bare", srv.URL+"/alice/big.git", dst).CombinedOutput(); err != nil {
						b.Errorf("clone: %v\n%s", err, out)
					}
				})
			}
			wg.Wait()
		}
		b.ReportMetric(httpGitPeakRSS(b), "peak-RSS-MiB")
	})
}

// httpGitMedian is the median of samples.
func httpGitMedian(samples []time.Duration) time.Duration {
	s := slices.Clone(samples)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// httpGitPeakRSS is this process's peak resident set in MiB (VmHWM).
func httpGitPeakRSS(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkHTTPGitPush pushes the same repository into a fresh empty one,
// over smart HTTP (hooks included) and over file:// (no hooks).
func BenchmarkHTTPGitPush(b *testing.B) {
	httpGitBenchHookBinary(b)
	srv := testserver.Start(b)
	_, alice := srv.CreateUser("alice", userPassword)
	src := httpGitBenchRepo(b, 5000, 4096)
	n := 0
	push := func(b *testing.B, url func(name string) string) {
		for b.Loop() {
			b.StopTimer()
			n++
			name := fmt.Sprintf("p%d", n)
			if _, _, err := alice.CreateRepo(gitea.CreateRepoOption{Name: name}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			cmd := exec.Command("git", "push", "-q", url(name), "main")
			cmd.Dir = src
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("push: %v\n%s", err, strings.TrimSpace(string(out)))
			}
		}
	}
	b.Run("HTTP", func(b *testing.B) {
		push(b, func(name string) string { return httpGitURL(srv, "alice", name, "alice", userPassword) })
	})
	b.Run("File", func(b *testing.B) {
		push(b, func(name string) string { return "file://" + repoDir(srv, "alice", name) })
	})
}

// httpGitBenchHookBinary builds cmd/depot-hook beside the test binary, where
// the server's runner looks for it, so that pushes run the hooks with the
// program a production install runs rather than with this test binary.
func httpGitBenchHookBinary(b *testing.B) {
	b.Helper()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(exe), "depot-hook"), "./cmd/depot-hook")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/depot-hook: %v\n%s", err, out)
	}
}
