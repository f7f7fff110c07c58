package libgit2_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
)

// historyDiffStory extends historyStory with the changes a diff must carry:
// binary edits and deletions, modes, symbolic links, an empty file, a file
// without a final newline and names that need quoting.
func historyDiffStory(t *testing.T) (*historyFixture, []string) {
	t.Helper()
	f, ids := historyStory(t)
	order := []string{ids["c2"], ids["c3"], ids["c4"], ids["m"], ids["c5"], ids["c6"]}
	f.write("bin.dat", "\x00\x01\x02binary changed\x00\xfe")
	f.write("script.sh", "#!/bin/sh\necho hi\n")
	if err := os.Chmod(filepath.Join(f.work, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write("empty", "")
	f.write("no-newline.txt", "last line")
	f.write(`quote"and\tab.txt`, "odd name\n")
	if err := os.Symlink("dir/a.txt", filepath.Join(f.work, "link")); err != nil {
		t.Fatal(err)
	}
	order = append(order, f.commit(11, "binary change, modes, links\n\nSecond paragraph.\n\n- a list\n- of things"))
	if err := os.Chmod(filepath.Join(f.work, "script.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.work, "bin.dat")); err != nil {
		t.Fatal(err)
	}
	f.write("no-newline.txt", "last line\nnow ended\n")
	f.write("ünïcödé 文件.txt", "héllo wörld\n")
	order = append(order, f.commit(12, "Ünïcödé subject: mode, deletion, newline"))
	f.publish()
	return f, order
}

// historyCheckout clones the fixture's bare repository and checks out commit.
func historyCheckout(t *testing.T, f *historyFixture, commit string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	historyGitAt(t, filepath.Dir(dir), 0, "clone", "-q", f.bare, dir)
	historyGitAt(t, dir, 0, "checkout", "-q", "--detach", commit)
	return dir
}

// historyDiff returns WriteCommitDiff's text.
func historyDiff(t *testing.T, f *historyFixture, ref string, format ports.CommitDiffFormat) string {
	t.Helper()
	var b strings.Builder
	if err := f.s.WriteCommitDiff(context.Background(), f.p, ref, format, &b); err != nil {
		t.Fatalf("WriteCommitDiff(%s, %s): %v", ref, format, err)
	}
	return b.String()
}

func TestHistoryDiffAppliesWithGitApply(t *testing.T) {
	f, commits := historyDiffStory(t)
	for _, id := range commits {
		t.Run(id[:8], func(t *testing.T) {
			parent := strings.TrimSpace(historyGitAt(t, f.bare, 0, "rev-parse", id+"^"))
			tree := strings.TrimSpace(historyGitAt(t, f.bare, 0, "rev-parse", id+"^{tree}"))
			diff := historyDiff(t, f, id, ports.CommitDiffUnified)
			if !strings.HasPrefix(diff, "diff --git ") {
				t.Fatalf("diff starts with %q", diff[:min(len(diff), 40)])
			}
			dir := historyCheckout(t, f, parent)
			patch := filepath.Join(t.TempDir(), "x.diff")
			if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
				t.Fatal(err)
			}
			historyGitAt(t, dir, 0, "apply", "--check", patch)
			historyGitAt(t, dir, 0, "apply", "--index", patch)
			if got := strings.TrimSpace(historyGitAt(t, dir, 0, "write-tree")); got != tree {
				t.Fatalf("applied tree %s, commit tree %s\n%s", got, tree, diff)
			}
		})
	}
}

func TestHistoryDiffMatchesGitDiffForText(t *testing.T) {
	f, ids := historyStory(t)
	// Text-only commits: git diff -M prints the same bytes.
	for _, name := range []string{"c2", "c4", "f2"} {
		got := historyDiff(t, f, ids[name], ports.CommitDiffUnified)
		want := historyGitAt(t, f.bare, 0, "diff", "-M", ids[name]+"^", ids[name])
		if got != want {
			t.Fatalf("%s: diff\n%s\ngit diff\n%s", name, got, want)
		}
	}
}

func TestHistoryPatchAppliesWithGitAm(t *testing.T) {
	f, commits := historyDiffStory(t)
	for _, id := range commits {
		t.Run(id[:8], func(t *testing.T) {
			patch := historyDiff(t, f, id, ports.CommitDiffMbox)
			if !strings.HasPrefix(patch, "From "+id+" Mon Sep 17 00:00:00 2001\nFrom: ") {
				t.Fatalf("patch starts with %q", patch[:min(len(patch), 80)])
			}
			parent := strings.TrimSpace(historyGitAt(t, f.bare, 0, "rev-parse", id+"^"))
			dir := historyCheckout(t, f, parent)
			file := filepath.Join(t.TempDir(), "x.patch")
			if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			historyGitAt(t, dir, 30, "am", "-q", file)
			for _, format := range []string{"%T", "%an", "%ae", "%aI", "%B"} {
				got := historyGitAt(t, dir, 0, "log", "-1", "--format="+format, "HEAD")
				want := historyGitAt(t, f.bare, 0, "log", "-1", "--format="+format, id)
				if got != want {
					t.Fatalf("%s after git am: %q, commit has %q\n%s", format, got, want, patch)
				}
			}
		})
	}
}

func TestHistoryPatchOfRootCommit(t *testing.T) {
	f, ids := historyStory(t)
	patch := historyDiff(t, f, ids["c1"], ports.CommitDiffMbox)
	for _, want := range []string{
		"From " + ids["c1"] + " Mon Sep 17 00:00:00 2001\n",
		"From: =?UTF-8?q?Zo=C3=AB=20Author?= <author@example.com>\n",
		"Date: Fri, 1 Mar 2024 09:01:00 +0000\n",
		"Subject: [PATCH] first commit\n\nWith a body.\n---\n",
		" 2 files changed, 6 insertions(+)\n create mode 100644 README.md\n",
		"new file mode 100644\n",
	} {
		if !strings.Contains(patch, want) {
			t.Fatalf("patch lacks %q:\n%s", want, patch)
		}
	}
	// The root commit applies to an empty repository.
	dir := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	historyGitAt(t, dir, 0, "init", "-q")
	file := filepath.Join(t.TempDir(), "root.patch")
	if err := os.WriteFile(file, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	historyGitAt(t, dir, 0, "am", "-q", file)
	if got, want := historyGitAt(t, dir, 0, "rev-parse", "HEAD^{tree}"), historyGitAt(t, f.bare, 0, "rev-parse", ids["c1"]+"^{tree}"); got != want {
		t.Fatalf("tree %s, want %s", got, want)
	}
}
