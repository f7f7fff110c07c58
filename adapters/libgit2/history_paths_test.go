package libgit2_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// histRestart is a storage over f's repositories as a restarted server
// would open it: nothing in memory.
func histRestart(t *testing.T, f *histFixture) *libgit2.Storage {
	t.Helper()
	s, err := libgit2.New(filepath.Dir(filepath.Dir(f.bare)), slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// histPathTotal lists one commit of path at ref with s and returns the total.
func histPathTotal(t *testing.T, s *libgit2.Storage, f *histFixture, ref, path string) int64 {
	t.Helper()
	_, total, err := s.ListCommits(context.Background(), f.p, ports.CommitListQuery{Ref: ref, Path: path},
		ports.ListOptions{Page: 1, Limit: 1})
	if err != nil {
		t.Fatalf("ListCommits %s -- %s: %v", ref, path, err)
	}
	return total
}

// Path-filtered counts are kept on disk by (tip, path), and a new tip is
// counted from an older tip's count when only linear commits were added;
// a merge reaching below the older tip is counted from scratch.
func TestContentEPathCountsPersistAndExtend(t *testing.T) {
	f, _ := histStory(t)
	const path = "dir/a.txt"
	old := strings.TrimSpace(f.git(0, "rev-parse", "main"))
	if got, want := histPathTotal(t, f.s, f, "main", path), int64(len(f.log("main", "--", path))); got != want {
		t.Fatalf("total %d, git counts %d", got, want)
	}
	countsPath := filepath.Join(f.bare, "depot-path-counts")
	data, err := os.ReadFile(countsPath)
	if want := fmt.Sprintf("%s %d %s\n", old, len(f.log("main", "--", path)), strconv.Quote(path)); err != nil || !strings.Contains(string(data), want) {
		t.Fatalf("path counts file %q, %v; want a line %q", data, err, want)
	}
	// A planted count for the old tip proves that a restarted storage reads
	// the file and extends the count to a new tip: two commits pushed,
	// one changing the path.
	if err := os.WriteFile(countsPath, []byte("garbage\n"+old+" 4000 "+strconv.Quote(path)+"\n"+old+" 7 \"other\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	histGitAt(t, filepath.Dir(work), 0, "clone", "-q", f.bare, work)
	if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	histGitAt(t, work, 20, "commit", "-q", "-am", "change a again")
	histGitAt(t, work, 21, "commit", "-q", "--allow-empty", "-m", "empty")
	histGitAt(t, work, 21, "push", "-q", "origin", "HEAD:main")
	restarted := histRestart(t, f)
	if got := histPathTotal(t, restarted, f, old, path); got != 4000 {
		t.Fatalf("restarted total %d at the old tip; want the persisted 4000", got)
	}
	if got := histPathTotal(t, restarted, f, "main", path); got != 4001 {
		t.Fatalf("total %d at the new tip; want 4000 extended by 1", got)
	}
	if got := histPathTotal(t, restarted, f, "main", "other"); got != 7 {
		t.Fatalf("total %d for another path; want its own persisted 7, the new commits not touching it", got)
	}

	// A merge of a branch that forked below the old tip: the count is
	// walked again, and exact.
	if err := os.WriteFile(countsPath, []byte(old+" 4000 "+strconv.Quote(path)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	histGitAt(t, work, 22, "checkout", "-q", "-b", "late", "HEAD~4")
	if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	histGitAt(t, work, 22, "commit", "-q", "-am", "late change")
	histGitAt(t, work, 23, "checkout", "-q", "main")
	// The merge keeps late's version of the path: the simplified walk
	// follows late alone, below the old tip.
	histGitAt(t, work, 23, "merge", "-q", "--no-commit", "-s", "ours", "late")
	if err := os.WriteFile(filepath.Join(work, "dir", "a.txt"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	histGitAt(t, work, 23, "commit", "-q", "-am", "merge late")
	histGitAt(t, work, 23, "push", "-q", "origin", "HEAD:main")
	merged := histRestart(t, f)
	if got, want := histPathTotal(t, merged, f, "main", path), int64(len(f.log("main", "--", path))); got != want {
		t.Fatalf("total %d after a merge from below the old tip; git counts %d", got, want)
	}

	// The warm-up after a push counts the paths listed lately at the new tip.
	histGitAt(t, work, 24, "commit", "-q", "--allow-empty", "-m", "after")
	histGitAt(t, work, 24, "push", "-q", "origin", "HEAD:main")
	tip := strings.TrimSpace(histGitAt(t, work, 0, "rev-parse", "HEAD"))
	if err := merged.WarmCommitCounts(context.Background(), f.p, []string{tip}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(countsPath)
	if want := fmt.Sprintf("%s %d %s\n", tip, len(f.log("main", "--", path)), strconv.Quote(path)); !strings.Contains(string(data), want) {
		t.Fatalf("path counts file %q lacks the warmed %q", data, want)
	}
}
