package libgit2_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// The big fixture: archiveBigFiles incompressible blobs of archiveBigBlob
// bytes each, 50 MiB in all, in ten directories.
const (
	archiveBigFiles = 200
	archiveBigBlob  = 256 << 10
)

// archiveBigRepo builds a ~50 MiB repository of random blobs with one
// `git fast-import` run (the objects land in one pack, as in a real
// repository) and returns the storage, the repository and its content size.
func archiveBigRepo(tb testing.TB) (*libgit2.Storage, ports.RepoPath, int64) {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "repos")
	s, err := libgit2.New(root, nil)
	if err != nil {
		tb.Fatal(err)
	}
	p := ports.RepoPath{Owner: "bench", Name: "big"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = repoDir(root, p)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	rng := rand.NewChaCha8([32]byte{'d', 'e', 'p', 'o', 't'})
	blob := make([]byte, archiveBigBlob)
	for i := 1; i <= archiveBigFiles; i++ {
		_, _ = rng.Read(blob)
		fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n", i, len(blob))
		_, _ = w.Write(blob)
		_, _ = w.WriteString("\n")
	}
	msg := "fifty megabytes\n"
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata %d\n%s", len(msg), msg)
	for i := 1; i <= archiveBigFiles; i++ {
		fmt.Fprintf(w, "M 100644 :%d dir%02d/file%03d.bin\n", i, i%10, i)
	}
	_, _ = w.WriteString("\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		tb.Fatalf("git fast-import: %v\n%s", err, stderr.String())
	}
	return s, p, archiveBigFiles * archiveBigBlob
}

// archiveStream writes p's main archive in format to w.
func archiveStream(tb testing.TB, s *libgit2.Storage, p ports.RepoPath, format ports.ArchiveFormat, w io.Writer) {
	tb.Helper()
	a, err := s.OpenArchive(context.Background(), p, "main", format, "big/")
	if err != nil {
		tb.Fatal(err)
	}
	defer a.Close()
	if err := a.Stream(context.Background(), w); err != nil {
		tb.Fatal(err)
	}
}

var archiveBenchFormats = []ports.ArchiveFormat{ports.ArchiveZip, ports.ArchiveTarGz, ports.ArchiveBundle}

// BenchmarkArchive reports how fast a 50 MiB repository streams in each
// format (MB/s of repository content). The target is 100 MB/s or more.
func BenchmarkArchive(b *testing.B) {
	s, p, size := archiveBigRepo(b)
	for _, f := range archiveBenchFormats {
		b.Run(string(f), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				archiveStream(b, s, p, f, io.Discard)
			}
		})
	}
}

// archiveHeapProbe discards what it is given and samples the Go heap every
// few megabytes, keeping the highest HeapInuse seen.
type archiveHeapProbe struct {
	n, next int64
	peak    uint64
}

func (h *archiveHeapProbe) Write(p []byte) (int, error) {
	h.n += int64(len(p))
	if h.n >= h.next {
		h.next = h.n + 2<<20
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		h.peak = max(h.peak, m.HeapInuse)
	}
	return len(p), nil
}

// archiveRSSAnon reads the process's resident anonymous memory (Linux), or
// 0 where /proc is not there.
func archiveRSSAnon() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestArchiveStreamMemoryBounded checks that archiving the 50 MiB repository
// grows the Go heap by less than 20 MB at its peak: blobs go from libgit2 to
// the writer one at a time, never gathered. It is a memory bound, not a
// timing, and does not run in parallel so that other tests' allocations do
// not count.
func TestArchiveStreamMemoryBounded(t *testing.T) {
	s, p, size := archiveBigRepo(t)
	const bound = 20 << 20
	for _, f := range archiveBenchFormats {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		rss := archiveRSSAnon()
		probe := &archiveHeapProbe{peak: before.HeapInuse}
		archiveStream(t, s, p, f, probe)
		growth := int64(probe.peak) - int64(before.HeapInuse)
		t.Logf("%s: %d bytes out, peak heap growth %.1f MB, anonymous RSS growth %.1f MB", f, probe.n,
			float64(growth)/1e6, float64(archiveRSSAnon()-rss)/1e6)
		if growth >= bound {
			t.Errorf("%s: heap grew by %d bytes while archiving, want < %d", f, growth, bound)
		}
		// Random blobs do not compress: everything went through.
		if probe.n < size {
			t.Errorf("%s: %d bytes written, want at least %d", f, probe.n, size)
		}
	}
}
