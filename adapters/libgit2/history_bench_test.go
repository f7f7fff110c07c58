package libgit2_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// historyBenchCommits is the size of the benchmark's history.
const historyBenchCommits = 100_000

// historyBenchRepo writes a repository of n linear commits, each changing one
// of 100 small files, under root with git fast-import.
func historyBenchRepo(b testing.TB, root string, p ports.RepoPath, n int) {
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
	historyBenchRepo(b, root, p, historyBenchCommits)
	var stores []*libgit2.Storage
	b.Cleanup(func() {
		for _, s := range stores {
			s.Close()
		}
	})
	newStore := func() *libgit2.Storage {
		s, err := libgit2.New(root, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		stores = append(stores, s)
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
		run(b, s, q, historyBenchCommits) // counts once; the count is cached
		b.ResetTimer()
		for b.Loop() {
			run(b, s, q, historyBenchCommits)
		}
	})
	b.Run("page1-uncached-count", func(b *testing.B) {
		q := ports.CommitListQuery{Extras: extras}
		for b.Loop() {
			run(b, newStore(), q, historyBenchCommits)
		}
	})
	b.Run("page1-path", func(b *testing.B) {
		s := newStore()
		q := ports.CommitListQuery{Path: "f/07.txt", Extras: extras}
		run(b, s, q, historyBenchCommits/100)
		b.ResetTimer()
		for b.Loop() {
			run(b, s, q, historyBenchCommits/100)
		}
	})
	b.Run("page1-path-cold", func(b *testing.B) {
		// A fresh process that never counted this path: nothing in memory
		// and nothing persisted for it.
		// The API's budget: past it the page is answered without a total,
		// and the index is built in the background (stopped here: the
		// next iteration must find nothing).
		q := ports.CommitListQuery{Path: "f/07.txt", Extras: extras, CountBudget: 100 * time.Millisecond}
		for b.Loop() {
			removePathCounts(b, root, p)
			s := newStore()
			list, total, err := s.ListCommits(context.Background(), p, q, page)
			if err != nil || (total == -1 && len(list) != 31) || (total != -1 && (total != historyBenchCommits/100 || len(list) != 30)) {
				b.Fatalf("total %d, %d commits, %v", total, len(list), err)
			}
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
	})
	b.Run("page1-path-restart", func(b *testing.B) {
		// A fresh process over a repository whose path count was kept on
		// disk by an earlier listing.
		q := ports.CommitListQuery{Path: "f/07.txt", Extras: extras}
		run(b, newStore(), q, historyBenchCommits/100)
		b.ResetTimer()
		for b.Loop() {
			run(b, newStore(), q, historyBenchCommits/100)
		}
	})
	b.Run("page1-path-new-tip", func(b *testing.B) {
		// After each push of one commit to a branch whose path count is
		// known at its previous tip (the commits leave the path alone).
		s := newStore()
		q := ports.CommitListQuery{Ref: "grow", Path: "f/07.txt", Extras: extras}
		historyBenchGit(b, root, p, "branch", "-f", "grow", "main")
		run(b, s, q, historyBenchCommits/100)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			tip := historyBenchGit(b, root, p, "commit-tree", "grow^{tree}", "-p", "grow", "-m", fmt.Sprintf("push %d", i))
			historyBenchGit(b, root, p, "update-ref", "refs/heads/grow", tip)
			b.StartTimer()
			run(b, s, q, historyBenchCommits/100)
		}
	})
	b.Run("page100", func(b *testing.B) {
		s := newStore()
		q := ports.CommitListQuery{Extras: extras}
		hundred := ports.ListOptions{Page: 100, Limit: 30}
		run(b, s, q, historyBenchCommits) // counts once; the count is cached
		b.ResetTimer()
		for b.Loop() {
			if _, _, err := s.ListCommits(context.Background(), p, q, hundred); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// removePathCounts deletes the path-filtered counts and indexes persisted
// in p's repository, if any, so that the next listing of a path is cold.
func removePathCounts(b *testing.B, root string, p ports.RepoPath) {
	b.Helper()
	matches, err := filepath.Glob(filepath.Join(repoDir(root, p), "depot-path-*"))
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range matches {
		if err := os.RemoveAll(m); err != nil {
			b.Fatal(err)
		}
	}
}

// historyBenchGit runs git in p's repository and returns its trimmed output.
func historyBenchGit(b *testing.B, root string, p ports.RepoPath, args ...string) string {
	b.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = repoDir(root, p)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}
