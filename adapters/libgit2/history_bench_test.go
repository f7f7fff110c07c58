package libgit2_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// histBenchCommits is the size of the benchmark's history.
const histBenchCommits = 100_000

// histBenchRepo writes a repository of n linear commits, each changing one
// of 100 small files, under root with git fast-import.
func histBenchRepo(b *testing.B, root string, p ports.RepoPath, n int) {
	b.Helper()
	dir := repoDir(root, p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	git := func(stdin func(w *bufio.Writer), args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		if stdin != nil {
			r, w := io.Pipe()
			cmd.Stdin = r
			go func() {
				bw := bufio.NewWriterSize(w, 1<<20)
				stdin(bw)
				w.CloseWithError(bw.Flush())
			}()
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q", "--bare", "-b", "main", ".")
	git(func(w *bufio.Writer) {
		when := int64(1_600_000_000)
		for i := 1; i <= n; i++ {
			content := fmt.Sprintf("file %d, version %d\n", i%100, i)
			msg := fmt.Sprintf("commit %d\n\nChanges file %d.\n", i, i%100)
			fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", i)
			fmt.Fprintf(w, "author Bench <bench@example.com> %d +0000\n", when+int64(i))
			fmt.Fprintf(w, "committer Bench <bench@example.com> %d +0000\n", when+int64(i))
			fmt.Fprintf(w, "data %d\n%s", len(msg), msg)
			if i > 1 {
				fmt.Fprintf(w, "from :%d\n", i-1)
			}
			fmt.Fprintf(w, "M 100644 inline f/%02d.txt\ndata %d\n%s\n", i%100, len(content), content)
		}
	}, "fast-import", "--quiet")
}

// BenchmarkHistoryList measures a commit listing's first page (30 commits
// with stats and files, as the API asks by default) in a repository of
// 100,000 commits, built once for all sub-benchmarks.
func BenchmarkHistoryList(b *testing.B) {
	root := b.TempDir()
	p := ports.RepoPath{Owner: "bench", Name: "big"}
	histBenchRepo(b, root, p, histBenchCommits)
	newStore := func() *libgit2.Storage {
		s, err := libgit2.New(root, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	page := ports.ListOptions{Page: 1, Limit: 30}
	extras := ports.CommitExtras{Stats: true, Files: true, Signature: true}
	run := func(b *testing.B, s *libgit2.Storage, q ports.CommitListQuery, wantTotal int64) {
		b.Helper()
		list, total, err := s.ListCommits(context.Background(), p, q, page)
		if err != nil {
			b.Fatal(err)
		}
		if total != wantTotal || len(list) != min(30, int(wantTotal)) {
			b.Fatalf("total %d, %d commits", total, len(list))
		}
	}

	b.Run("page1", func(b *testing.B) {
		s := newStore()
		q := ports.CommitListQuery{Extras: extras}
		run(b, s, q, histBenchCommits) // counts once; the count is cached
		b.ResetTimer()
		for b.Loop() {
			run(b, s, q, histBenchCommits)
		}
	})
	b.Run("page1-uncached-count", func(b *testing.B) {
		q := ports.CommitListQuery{Extras: extras}
		for b.Loop() {
			run(b, newStore(), q, histBenchCommits)
		}
	})
	b.Run("page1-path", func(b *testing.B) {
		s := newStore()
		q := ports.CommitListQuery{Path: "f/07.txt", Extras: extras}
		run(b, s, q, histBenchCommits/100)
		b.ResetTimer()
		for b.Loop() {
			run(b, s, q, histBenchCommits/100)
		}
	})
	b.Run("page100", func(b *testing.B) {
		s := newStore()
		q := ports.CommitListQuery{Extras: extras}
		hundred := ports.ListOptions{Page: 100, Limit: 30}
		run(b, s, q, histBenchCommits) // counts once; the count is cached
		b.ResetTimer()
		for b.Loop() {
			if _, _, err := s.ListCommits(context.Background(), p, q, hundred); err != nil {
				b.Fatal(err)
			}
		}
	})
}
