package libgit2_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// historyRestart is a storage over f's repositories as a restarted server
// would open it: nothing in memory.
func historyRestart(t *testing.T, f *historyFixture) *libgit2.Storage {
	t.Helper()
	s, err := libgit2.New(filepath.Dir(filepath.Dir(f.bare)), slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// historyPathIDs lists every commit of path at ref with s, in pages of
// three, and returns their ids and the total.
func historyPathIDs(t *testing.T, s *libgit2.Storage, f *historyFixture, ref, path string) ([]string, int64) {
	t.Helper()
	var ids []string
	var total int64
	for page := 1; ; page++ {
		list, n, err := s.ListCommits(context.Background(), f.p, ports.CommitListQuery{Ref: ref, Path: path},
			ports.ListOptions{Page: page, Limit: 3})
		if err != nil {
			t.Fatalf("ListCommits %s -- %s: %v", ref, path, err)
		}
		if page > 1 && n != total {
			t.Fatalf("page %d total %d, page 1 said %d", page, n, total)
		}
		total = n
		for _, c := range list {
			ids = append(ids, c.ID)
		}
		if len(list) < 3 {
			return ids, total
		}
	}
}

// historyCheckPath checks that s lists path at ref as git log does.
func historyCheckPath(t *testing.T, s *libgit2.Storage, f *historyFixture, ref, path string) {
	t.Helper()
	want := f.log(ref, "--", path)
	got, total := historyPathIDs(t, s, f, ref, path)
	if !slices.Equal(got, want) || total != int64(len(want)) {
		t.Fatalf("%s -- %s: listed %v (total %d)\ngit log %v", ref, path, got, total, want)
	}
}

// doubled is ids twice over: planted as an older tip's index, it shows in
// a new tip's listing only if the listing was extended from it.
func doubled(ids []string) []string { return append(slices.Clone(ids), ids...) }

// A path's listing is kept on disk as an index by (tip, path), with its
// count; a new tip's index is the older tip's behind what the push added,
// unless a merge reaches below the older tip or commit dates would
// interleave the two, where it is walked again.
func TestPathIndexPersistsAndExtends(t *testing.T) {
	f, _ := historyStory(t)
	const path = "dir/a.txt"
	old := strings.TrimSpace(f.git(0, "rev-parse", "main"))
	historyCheckPath(t, f.s, f, "main", path)
	want := f.log("main", "--", path)
	if ids, ok := libgit2.ReadPathIndex(f.bare, path, old); !ok || !slices.Equal(ids, want) {
		t.Fatalf("index at %s: %v, %v; want %v", old, ids, ok, want)
	}
	data, err := os.ReadFile(filepath.Join(f.bare, "depot-path-counts"))
	if line := fmt.Sprintf("%s %d %s\n", old, len(want), strconv.Quote(path)); err != nil || !strings.Contains(string(data), line) {
		t.Fatalf("path counts file %q, %v; want a line %q", data, err, line)
	}

	// A planted index at the old tip proves that a restarted storage reads
	// it and extends it to a new tip: two commits pushed, one changing the
	// path.
	libgit2.WritePathIndex(f.bare, path, old, doubled(want))
	work := filepath.Join(t.TempDir(), "w")
	historyGitAt(t, filepath.Dir(work), 0, "clone", "-q", f.bare, work)
	push := func(minute int, content, msg string) {
		t.Helper()
		if content != "" {
			if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		historyGitAt(t, work, minute, "commit", "-q", "--allow-empty", "-am", msg)
		historyGitAt(t, work, minute, "push", "-q", "-f", "origin", "HEAD:main")
	}
	push(20, "changed\n", "change a again")
	push(21, "", "empty")
	restarted := historyRestart(t, f)
	if _, total := historyPathIDs(t, restarted, f, old, path); total != int64(2*len(want)) {
		t.Fatalf("restarted total %d at the old tip; want the planted %d", total, 2*len(want))
	}
	got, total := historyPathIDs(t, restarted, f, "main", path)
	if total != int64(1+2*len(want)) || len(got) != 1+2*len(want) || got[0] != f.log("main~1", "-1")[0] {
		t.Fatalf("total %d, %v at the new tip; want the pushed change then the planted index", total, got)
	}

	// Without the planted index the new tip is exact, and so is the next
	// tip, extended from it.
	if err := os.RemoveAll(filepath.Join(f.bare, "depot-path-index")); err != nil {
		t.Fatal(err)
	}
	historyCheckPath(t, historyRestart(t, f), f, "main", path)
	push(22, "again\n", "third change")
	tip := strings.TrimSpace(f.git(0, "-C", f.bare, "rev-parse", "main"))
	historyCheckPath(t, historyRestart(t, f), f, "main", path)
	if ids, ok := libgit2.ReadPathIndex(f.bare, path, tip); !ok || !slices.Equal(ids, f.log("main", "--", path)) {
		t.Fatalf("index at the new tip: %v, %v", ids, ok)
	}

	// A merge of a branch that forked below the older tip: walked again.
	libgit2.WritePathIndex(f.bare, path, tip, doubled(f.log("main", "--", path)))
	historyGitAt(t, work, 23, "checkout", "-q", "-b", "late", "HEAD~4")
	if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	historyGitAt(t, work, 23, "commit", "-q", "-am", "late change")
	historyGitAt(t, work, 24, "checkout", "-q", "main")
	// The merge keeps late's version of the path: the simplified walk
	// follows late alone, below the older tip.
	historyGitAt(t, work, 24, "merge", "-q", "--no-commit", "-s", "ours", "late")
	push(24, "late\n", "merge late")
	historyCheckPath(t, historyRestart(t, f), f, "main", path)

	// A merge whose side branch is dated before the older tip: a walk from
	// the merge shows the older tip first, so the new commits do not all
	// come first, and the listing is walked again.
	tip = strings.TrimSpace(f.git(0, "-C", f.bare, "rev-parse", "main"))
	libgit2.WritePathIndex(f.bare, path, tip, doubled(f.log("main", "--", path)))
	historyGitAt(t, work, 25, "checkout", "-q", "-b", "skewed", "main")
	if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte("skewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	historyGitAt(t, work, 3, "commit", "-q", "-am", "skewed change, dated early")
	historyGitAt(t, work, 26, "checkout", "-q", "main")
	historyGitAt(t, work, 26, "merge", "-q", "--no-commit", "-s", "ours", "skewed")
	push(26, "both\n", "merge skewed")
	historyCheckPath(t, historyRestart(t, f), f, "main", path)

	// The warm-up after a push indexes the paths listed lately at the new tip.
	warm := historyRestart(t, f)
	historyCheckPath(t, warm, f, "main", path)
	push(27, "warm\n", "after")
	tip = strings.TrimSpace(f.git(0, "-C", f.bare, "rev-parse", "main"))
	if err := warm.WarmCommitCounts(context.Background(), f.p, []string{tip}); err != nil {
		t.Fatal(err)
	}
	if ids, ok := libgit2.ReadPathIndex(f.bare, path, tip); !ok || !slices.Equal(ids, f.log("main", "--", path)) {
		t.Fatalf("warmed index: %v, %v", ids, ok)
	}
}

// A damaged index is ignored and rewritten.
func TestPathIndexDamaged(t *testing.T) {
	f, _ := historyStory(t)
	const path = "dir"
	tip := strings.TrimSpace(f.git(0, "rev-parse", "main"))
	historyCheckPath(t, f.s, f, "main", path)
	file := libgit2.PathIndexFile(f.bare, path, tip)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, damaged := range [][]byte{nil, data[:len(data)-1], append(slices.Clone(data), 0)} {
		if err := os.WriteFile(file, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		historyCheckPath(t, historyRestart(t, f), f, "main", path)
		if again, err := os.ReadFile(file); err != nil || !slices.Equal(again, data) {
			t.Fatalf("index not rewritten: %d bytes, %v", len(again), err)
		}
	}
}

// With a count budget, a listing whose path is not indexed answers its
// page once the budget is spent, without a total and with one commit more
// when more follow; the index is built in the background.
func TestPathListingBudget(t *testing.T) {
	root := t.TempDir()
	p := ports.RepoPath{Owner: "bench", Name: "budget"}
	historyBenchRepo(t, root, p, 1000)
	s, err := libgit2.New(root, slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	git := func(args ...string) []string {
		out, err := exec.Command("git", append([]string{"-C", repoDir(root, p)}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	want := git("log", "--format=%H", "main", "--", "f")
	q := ports.CommitListQuery{Path: "f", CountBudget: time.Nanosecond}
	list, total, err := s.ListCommits(context.Background(), p, q, ports.ListOptions{Page: 2, Limit: 10})
	if err != nil || total != -1 || len(list) != 11 {
		t.Fatalf("total %d, %d commits, %v; want -1 and 11", total, len(list), err)
	}
	for i, c := range list {
		if c.ID != want[10+i] {
			t.Fatalf("commit %d is %s, git log has %s", 10+i, c.ID, want[10+i])
		}
	}
	s.WaitBackground()
	tip := git("rev-parse", "main")[0]
	if ids, ok := libgit2.ReadPathIndex(repoDir(root, p), "f", tip); !ok || !slices.Equal(ids, want) {
		t.Fatalf("background index: %d ids, %v; want %d", len(ids), ok, len(want))
	}
	list, total, err = s.ListCommits(context.Background(), p, q, ports.ListOptions{Page: 100, Limit: 10})
	if err != nil || total != 1000 || len(list) != 10 || list[9].ID != want[999] {
		t.Fatalf("indexed: total %d, %d commits, %v", total, len(list), err)
	}
}
