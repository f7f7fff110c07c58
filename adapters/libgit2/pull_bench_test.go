package libgit2_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// The pull request benchmarks' repository: pullBenchCommits linear commits
// on main over pullBenchFiles files of about 8 KiB of pseudo-random text
// each (so the pack holds about 20 MB that deltas cannot shrink), a branch
// "one" with one commit and a branch "ten" with ten, both forked from
// main's tenth commit from the tip and touching files main's last ten
// commits do not (so their merge is a real three-way merge, without
// conflict), and "ff" with ten commits on top of main.
const (
	pullBenchCommits = 5_000
	pullBenchFiles   = 1_000
	pullBenchBlob    = 8 << 10
)

// pullBench is the built repository and its commits.
type pullBench struct {
	root string
	p    ports.RepoPath
	// base is main's tip; one, ten and ff the tips of those branches.
	base, one, ten, ff string
	packBytes          int64
}

// buildPullBench writes the repository with one git fast-import run.
func buildPullBench(b *testing.B) *pullBench {
	b.Helper()
	pb := &pullBench{root: b.TempDir(), p: ports.RepoPath{Owner: "bench", Name: "pulls"}}
	dir := repoDir(pb.root, pb.p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	git := func(stdin func(w *bufio.Writer), args ...string) string {
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
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(nil, "init", "-q", "--bare", "-b", "main", ".")
	rng := rand.New(rand.NewPCG(1, 2))
	const hexDigits = "0123456789abcdef"
	blob := func() string {
		var sb strings.Builder
		for sb.Len() < pullBenchBlob {
			for range 63 {
				sb.WriteByte(hexDigits[rng.IntN(16)])
			}
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	when := int64(1_600_000_000)
	git(func(w *bufio.Writer) {
		mark := 0
		commit := func(ref string, from int, msg string, files map[string]string) int {
			mark++
			fmt.Fprintf(w, "commit %s\nmark :%d\n", ref, mark)
			fmt.Fprintf(w, "author Bench <bench@example.com> %d +0000\n", when+int64(mark))
			fmt.Fprintf(w, "committer Bench <bench@example.com> %d +0000\n", when+int64(mark))
			fmt.Fprintf(w, "data %d\n%s", len(msg), msg)
			if from > 0 {
				fmt.Fprintf(w, "from :%d\n", from)
			}
			names := make([]string, 0, len(files))
			for n := range files {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", n, len(files[n]), files[n])
			}
			return mark
		}
		file := func(i int) string { return fmt.Sprintf("src/%02d/file%04d.txt", i%50, i) }
		// The first commit adds every file; each later one rewrites one,
		// leaving alone the last 100, which the branches change.
		initial := map[string]string{}
		for i := range pullBenchFiles {
			initial[file(i)] = blob()
		}
		marks := []int{commit("refs/heads/main", 0, "initial\n", initial)}
		for i := 2; i <= pullBenchCommits; i++ {
			k := i % (pullBenchFiles - 100)
			marks = append(marks, commit("refs/heads/main", marks[len(marks)-1],
				fmt.Sprintf("commit %d\n\nRewrites %s.\n", i, file(k)), map[string]string{file(k): blob()}))
		}
		fork := marks[len(marks)-11]
		commit("refs/heads/one", fork, "one change\n", map[string]string{file(pullBenchFiles - 1): blob()})
		from := fork
		for i := range 10 {
			from = commit("refs/heads/ten", from, fmt.Sprintf("change %d of ten\n", i+1),
				map[string]string{file(pullBenchFiles - 2 - i): blob()})
		}
		from = marks[len(marks)-1]
		for i := range 10 {
			from = commit("refs/heads/ff", from, fmt.Sprintf("change %d of ff\n", i+1),
				map[string]string{file(pullBenchFiles - 20 - i): blob()})
		}
	}, "fast-import", "--quiet")
	pb.base = git(nil, "rev-parse", "refs/heads/main")
	pb.one = git(nil, "rev-parse", "refs/heads/one")
	pb.ten = git(nil, "rev-parse", "refs/heads/ten")
	pb.ff = git(nil, "rev-parse", "refs/heads/ff")
	packs, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "*.pack"))
	for _, p := range packs {
		if st, err := os.Stat(p); err == nil {
			pb.packBytes += st.Size()
		}
	}
	return pb
}

func (pb *pullBench) storage(b *testing.B) *libgit2.Storage {
	b.Helper()
	s, err := libgit2.New(pb.root, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

// BenchmarkPullCheckMerge is the background mergeability check of a
// one-commit pull request whose base moved ten commits since it forked, in
// a 5,000-commit, ~20 MB repository: the in-memory merge, conflicts, ahead
// and behind counts and diff stats (goal: < 50 ms).
func BenchmarkPullCheckMerge(b *testing.B) {
	pb := buildPullBench(b)
	s := pb.storage(b)
	ctx := context.Background()
	check := func(b *testing.B, head string, ahead int) {
		c, err := s.CheckMerge(ctx, pb.p, pb.base, head)
		if err != nil {
			b.Fatal(err)
		}
		if c.Status != ports.MergeMergeable || c.CommitsAhead != ahead {
			b.Fatalf("check: %+v", c)
		}
	}
	b.Run("one-commit", func(b *testing.B) {
		check(b, pb.one, 1)
		var all []time.Duration
		for b.Loop() {
			t := time.Now()
			check(b, pb.one, 1)
			all = append(all, time.Since(t))
		}
		reportP50(b, all)
		b.ReportMetric(float64(pb.packBytes)/1e6, "pack-MB")
	})
	b.Run("ten-commits", func(b *testing.B) {
		var all []time.Duration
		for b.Loop() {
			t := time.Now()
			check(b, pb.ten, 10)
			all = append(all, time.Since(t))
		}
		reportP50(b, all)
	})
}

// BenchmarkPullMerge is the Git side of merging a ten-commit pull request
// in the same repository, per style: the commits written (their objects
// land in the repository) and the compare-and-swap of a ref, as a merge
// moves the base branch; a scratch ref moves, so that every iteration
// merges the same base and head (goal: p50 < 300 ms).
func BenchmarkPullMerge(b *testing.B) {
	pb := buildPullBench(b)
	s := pb.storage(b)
	ctx := context.Background()
	sig := func(k int) ports.GitSignature {
		return ports.GitSignature{Name: "Merger", Email: "merger@example.com",
			When: time.Unix(1_700_000_000+int64(k), 0).UTC()}
	}
	msg := func(k int) ports.GitMergeCommit {
		return ports.GitMergeCommit{Message: fmt.Sprintf("Merge pull request %d\n", k), Author: sig(k), Committer: sig(k)}
	}
	styles := []struct {
		name  string
		merge func(k int) (string, error)
	}{
		{"merge", func(k int) (string, error) { return s.MergeCommits(ctx, pb.p, pb.base, pb.ten, msg(k)) }},
		{"squash", func(k int) (string, error) { return s.SquashCommits(ctx, pb.p, pb.base, pb.ten, msg(k)) }},
		{"rebase", func(k int) (string, error) { return s.RebaseCommits(ctx, pb.p, pb.base, pb.ten, sig(k)) }},
		{"rebase-merge", func(k int) (string, error) {
			tip, err := s.RebaseCommits(ctx, pb.p, pb.base, pb.ten, sig(k))
			if err != nil {
				return "", err
			}
			return s.MergeCommits(ctx, pb.p, pb.base, tip, msg(k))
		}},
		{"fast-forward-only", func(int) (string, error) {
			ok, err := s.IsAncestor(ctx, pb.p, pb.base, pb.ff)
			if err == nil && !ok {
				err = fmt.Errorf("ff is not ahead of main")
			}
			return pb.ff, err
		}},
	}
	for _, st := range styles {
		b.Run(st.name, func(b *testing.B) {
			ref := "refs/heads/bench-" + st.name
			old := ""
			var all []time.Duration
			k := 0
			for b.Loop() {
				k++
				t := time.Now()
				id, err := st.merge(k)
				if err != nil {
					b.Fatal(err)
				}
				if id != old { // fast-forward-only lands on the same commit each time
					if err := s.UpdateRef(ctx, pb.p, ref, id, old); err != nil {
						b.Fatal(err)
					}
					old = id
				}
				all = append(all, time.Since(t))
			}
			reportP50(b, all)
		})
	}
}

// reportP50 reports the median of a benchmark's samples in milliseconds.
func reportP50(b *testing.B, all []time.Duration) {
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
}
