package libgit2_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// rangeStory builds a pull request's history: feature branches from main at
// c1, main moves on after that (c2, a change the range must not show), and
// feature edits, renames, deletes, adds binary and unicode-named files,
// changes a mode and merges a side branch whose dates interleave with its
// own.
//
//	minute  main            feature                     side
//	1       c1
//	3                       f1 edit, rename, binary
//	4       c2 (README)
//	5                                                   s1 side.txt
//	6                       f2 delete, mode, unicode
//	7                                                   s2 side.txt
//	8                       m  merge side
//	9                       f3 edit after merge
func rangeStory(t *testing.T) (*historyFixture, map[string]string) {
	t.Helper()
	f := newHistFixture(t)
	ids := map[string]string{}
	f.write("README.md", "# Range\n\nA pull request.\n")
	f.write("a.txt", numbered("a", 30))
	f.write("old-name.txt", numbered("moved", 20))
	f.write("z.txt", "to be deleted\n")
	f.write("bin.dat", "\x00\x01\x02binary\x00\xff")
	f.write("script.sh", "#!/bin/sh\necho hi\n")
	ids["c1"] = f.commit(1, "first commit")
	f.git(2, "checkout", "-q", "-b", "feature")
	f.write("a.txt", strings.Replace(numbered("a", 30), "a 5\n", "a five\n", 1)+"a 31\n")
	if err := os.Rename(filepath.Join(f.work, "old-name.txt"), filepath.Join(f.work, "new-name.txt")); err != nil {
		t.Fatal(err)
	}
	f.write("new-name.txt", numbered("moved", 20)+"one more\n")
	f.write("bin.dat", "\x00\x01\x02binary changed\x00\xfe")
	f.write("dir/new.txt", "new\nfile\n")
	ids["f1"] = f.commit(3, "edit, rename, binary\n\nWith a body.")
	f.git(4, "checkout", "-q", "main")
	f.write("README.md", "# Range\n\nMain moved on.\n")
	ids["c2"] = f.commit(4, "main moves")
	f.git(5, "checkout", "-q", "-b", "side", ids["f1"])
	f.write("side.txt", "side one\n")
	ids["s1"] = f.commit(5, "side one")
	f.git(6, "checkout", "-q", "feature")
	if err := os.Remove(filepath.Join(f.work, "z.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(f.work, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write("ünï 文件.txt", "héllo\n")
	ids["f2"] = f.commit(6, "delete, mode, unicode")
	f.git(7, "checkout", "-q", "side")
	f.write("side.txt", "side one\nside two\n")
	ids["s2"] = f.commit(7, "side two")
	f.git(8, "checkout", "-q", "feature")
	f.git(8, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	ids["m"] = strings.TrimSpace(f.git(8, "rev-parse", "HEAD"))
	f.write("a.txt", strings.Replace(numbered("a", 30), "a 5\n", "a five\n", 1)+"a 31\na 32\n")
	ids["f3"] = f.commit(9, "edit after merge")
	f.publish()
	return f, ids
}

// numbered is n lines "<word> 1" … "<word> n".
func numbered(word string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", word, i)
	}
	return b.String()
}

// rangeDiff returns WriteRangeDiff's text.
func rangeDiff(t *testing.T, f *historyFixture, base, head string, format ports.CommitDiffFormat) string {
	t.Helper()
	var b strings.Builder
	if err := f.s.WriteRangeDiff(context.Background(), f.p, base, head, format, &b); err != nil {
		t.Fatalf("WriteRangeDiff(%s, %s, %s): %v", base, head, format, err)
	}
	return b.String()
}

func TestWriteRangeDiffMatchesGitDiffFromMergeBase(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	got := rangeDiff(t, f, ids["c2"], ids["f3"], ports.CommitDiffUnified)
	want := historyGitAt(t, f.bare, 0, "diff", ids["c1"], ids["f3"])
	sameText(t, "git diff <merge base> <head>", got, want)
	is.True(!strings.Contains(got, "README.md"))                 // main's later change is not the pull request's
	is.True(strings.Contains(got, "rename from old-name.txt\n")) // renames detected
	is.True(strings.Contains(got, "Binary files a/bin.dat and b/bin.dat differ\n"))
}

func TestWriteRangeDiffOfBaseAncestorMatchesGitDiff(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	// The base is the merge base itself, and a head behind its base
	// changes nothing.
	sameText(t, "git diff <base> <head>", rangeDiff(t, f, ids["c1"], ids["f2"], ports.CommitDiffUnified),
		historyGitAt(t, f.bare, 0, "diff", ids["c1"], ids["f2"]))
	is.Equal(rangeDiff(t, f, ids["f3"], ids["f1"], ports.CommitDiffUnified), "")
	is.Equal(rangeDiff(t, f, ids["f3"], ids["f1"], ports.CommitDiffMbox), "")
}

func TestWriteRangeDiffMboxMatchesGitFormatPatch(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	got := rangeDiff(t, f, ids["c2"], ids["f3"], ports.CommitDiffMbox)
	want := historyGitAt(t, f.bare, 0, "format-patch", "--no-signature", "--stdout", ids["c1"]+".."+ids["f3"])
	sameText(t, "git format-patch --stdout <merge base>..<head>", comparableMbox(got), comparableMbox(want))
	// Oldest first, the merge left out, numbered.
	var order []string
	for _, line := range strings.Split(got, "\n") {
		if id, ok := strings.CutPrefix(line, "From "); ok && strings.HasSuffix(id, " Mon Sep 17 00:00:00 2001") {
			order = append(order, strings.Fields(id)[0])
		}
	}
	is.Equal(order, []string{ids["f1"], ids["s1"], ids["f2"], ids["s2"], ids["f3"]})
	is.True(strings.Contains(got, "Subject: [PATCH 1/5] edit, rename, binary\n"))
}

func TestWriteRangeDiffMboxOfOneCommit(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	got := rangeDiff(t, f, ids["m"], ids["f3"], ports.CommitDiffMbox)
	sameText(t, "git format-patch", comparableMbox(got), comparableMbox(historyGitAt(t, f.bare, 0, "format-patch", "--no-signature", "--stdout", ids["m"]+".."+ids["f3"])))
	is.True(strings.Contains(got, "Subject: [PATCH] edit after merge\n"))
}

func TestWriteRangeDiffMboxAppliesWithGitAm(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	patch := rangeDiff(t, f, ids["c2"], ids["f3"], ports.CommitDiffMbox)
	dir := historyCheckout(t, f, ids["c1"])
	file := filepath.Join(t.TempDir(), "range.mbox")
	is.NoErr(os.WriteFile(file, []byte(patch), 0o644))
	historyGitAt(t, dir, 30, "am", "-q", file)
	// The series rebuilds the head's tree, merge left out.
	is.Equal(historyGitAt(t, dir, 0, "rev-parse", "HEAD^{tree}"), historyGitAt(t, f.bare, 0, "rev-parse", ids["f3"]+"^{tree}"))
	is.Equal(historyGitAt(t, dir, 0, "rev-list", "--count", ids["c1"]+"..HEAD"), "5\n")
}

func TestWriteRangeDiffUnrelatedHistoriesDiffFromBase(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	f.git(20, "checkout", "-q", "--orphan", "other")
	f.git(20, "rm", "-q", "-rf", ".")
	f.write("other.txt", "unrelated\n")
	other := f.commit(20, "unrelated root")
	f.publish()
	// No merge base: the changes from the base itself, as git diff base head.
	sameText(t, "git diff <base> <head>", rangeDiff(t, f, ids["c1"], other, ports.CommitDiffUnified), historyGitAt(t, f.bare, 0, "diff", ids["c1"], other))
	files, total, err := f.s.RangeFiles(context.Background(), f.p, ids["c1"], other, ports.RangeFileQuery{Page: ports.ListOptions{Page: 1, Limit: 50}})
	is.NoErr(err)
	is.Equal(total, 7)
	is.Equal(files[4], ports.RangeFile{Path: "other.txt", Status: "added", Additions: 1})
}

func TestWriteRangeDiffErrorsLeaveWriterUntouched(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	absent := strings.Repeat("0", 40)
	for _, c := range []struct{ base, head string }{
		{absent, ids["f3"]}, {ids["c2"], absent}, {"main", ids["f3"]}, {ids["c2"], ids["f3"][:12]},
	} {
		for _, format := range []ports.CommitDiffFormat{ports.CommitDiffUnified, ports.CommitDiffMbox} {
			var b bytes.Buffer
			err := f.s.WriteRangeDiff(context.Background(), f.p, c.base, c.head, format, &b)
			is.True(errors.Is(err, errs.ErrNotFound)) // an absent or abbreviated id
			is.Equal(b.Len(), 0)
		}
		_, _, err := f.s.RangeFiles(context.Background(), f.p, c.base, c.head, ports.RangeFileQuery{Page: ports.ListOptions{Page: 1, Limit: 10}})
		is.True(errors.Is(err, errs.ErrNotFound))
	}
	var b bytes.Buffer
	err := f.s.WriteRangeDiff(context.Background(), f.p, ids["c2"], ids["f3"], "html", &b)
	is.True(errors.Is(err, errs.ErrNotFound)) // an unknown format
	is.Equal(b.Len(), 0)
	err = f.s.WriteRangeDiff(context.Background(), ports.RepoPath{Owner: "alice", Name: "absent"}, ids["c2"], ids["f3"], ports.CommitDiffUnified, &b)
	is.True(errors.Is(err, errs.ErrNotFound)) // an absent repository
	is.Equal(b.Len(), 0)
}

// rangeAllFiles is every file of the story's pull request, as Gitea lists
// them: numstat's line counts, Gitea's status words.
func rangeAllFiles() []ports.RangeFile {
	return []ports.RangeFile{
		{Path: "a.txt", Status: "changed", Additions: 3, Deletions: 1},
		{Path: "bin.dat", Status: "unchanged", Binary: true},
		{Path: "dir/new.txt", Status: "added", Additions: 2},
		{Path: "new-name.txt", PreviousPath: "old-name.txt", Status: "renamed", Additions: 1},
		{Path: "script.sh", Status: "unchanged"},
		{Path: "side.txt", Status: "added", Additions: 2},
		{Path: "z.txt", Status: "deleted", Deletions: 1},
		{Path: "ünï 文件.txt", Status: "added", Additions: 1},
	}
}

func TestRangeFilesListsChangesFromMergeBase(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	files, total, err := f.s.RangeFiles(context.Background(), f.p, ids["c2"], ids["f3"], ports.RangeFileQuery{Page: ports.ListOptions{Page: 1, Limit: 50}})
	is.NoErr(err)
	is.Equal(total, 8)
	is.Equal(files, rangeAllFiles())
	// The counts are git's own.
	numstat := historyGitAt(t, f.bare, 0, "-c", "core.quotePath=false", "diff", "--numstat", ids["c1"], ids["f3"])
	for _, file := range files {
		adds, dels := fmt.Sprint(file.Additions), fmt.Sprint(file.Deletions)
		if file.Binary {
			adds, dels = "-", "-"
		}
		path := file.Path
		if file.PreviousPath != "" {
			path = file.PreviousPath + " => " + file.Path
		}
		is.True(strings.Contains(numstat, adds+"\t"+dels+"\t"+path+"\n")) // numstat line of the file
	}
}

func TestRangeFilesPages(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	all := rangeAllFiles()
	for _, c := range []struct {
		page, limit int
		want        []ports.RangeFile
	}{
		{1, 3, all[:3]}, {2, 3, all[3:6]}, {3, 3, all[6:]}, {4, 3, []ports.RangeFile{}}, {0, 5, all[:5]}, {1, 0, all},
	} {
		files, total, err := f.s.RangeFiles(context.Background(), f.p, ids["c2"], ids["f3"], ports.RangeFileQuery{Page: ports.ListOptions{Page: c.page, Limit: c.limit}})
		is.NoErr(err)
		is.Equal(total, 8)
		is.Equal(files, c.want) // page c.page of c.limit
	}
}

func TestRangeFilesOfEmptyRange(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	files, total, err := f.s.RangeFiles(context.Background(), f.p, ids["f3"], ids["f3"], ports.RangeFileQuery{Page: ports.ListOptions{Page: 1, Limit: 10}})
	is.NoErr(err)
	is.Equal(total, 0)
	is.Equal(len(files), 0)
}

// rangeBigStory is a branch adding files files of lines lines each (about
// 40 bytes a line).
func rangeBigStory(t *testing.T, files, lines int) (*historyFixture, string, string) {
	t.Helper()
	f := newHistFixture(t)
	f.write("README.md", "big\n")
	base := f.commit(1, "base")
	var b strings.Builder
	for i := 0; i < files; i++ {
		b.Reset()
		for j := 0; j < lines; j++ {
			fmt.Fprintf(&b, "file %04d line %06d %x\n", i, j, (i*7919+j)*2654435761)
		}
		f.write(fmt.Sprintf("big/%04d.txt", i), b.String())
	}
	head := f.commit(2, "big change")
	f.publish()
	return f, base, head
}

// residentBytes is the process's resident set size (0 where /proc is
// missing).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(rest, &kb)
			return kb << 10
		}
	}
	return 0
}

// peakWriter counts what it is given and samples the Go heap in use every
// MB written.
type peakWriter struct {
	n, next  int
	peakHeap uint64
	peakRSS  int64
}

func (w *peakWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n >= w.next {
		w.next = w.n + 1<<20
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.peakHeap = max(w.peakHeap, ms.HeapInuse)
		w.peakRSS = max(w.peakRSS, residentBytes())
	}
	return len(p), nil
}

func TestWriteRangeDiffStreams(t *testing.T) {
	is := is.New(t)
	f, base, head := rangeBigStory(t, 200, 2500) // about 18 MB of diff
	// Collect garbage early, so that the heap in use is what is live.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, format := range []ports.CommitDiffFormat{ports.CommitDiffUnified, ports.CommitDiffMbox} {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rss := residentBytes()
		w := &peakWriter{}
		is.NoErr(f.s.WriteRangeDiff(context.Background(), f.p, base, head, format, w))
		is.True(w.n > 16<<20) // the whole diff was written
		growth, rssGrowth := int64(w.peakHeap)-int64(ms.HeapInuse), w.peakRSS-rss
		t.Logf("%s: %d bytes written, heap grew by at most %d bytes, RSS by %d", format, w.n, growth, rssGrowth)
		is.True(growth < 6<<20)     // the Go heap does not grow with the diff
		is.True(rssGrowth < 20<<20) // nor does libgit2's memory
	}
}

// sameText fails the test when got is not want, showing where they differ.
func sameText(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	dir := t.TempDir()
	g, w := filepath.Join(dir, "got"), filepath.Join(dir, "want")
	if err := os.WriteFile(g, []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("diff", "-u", w, g).CombinedOutput()
	t.Fatalf("%s differs from git's (- git, + ours):\n%s", what, out)
}

// comparableMbox leaves out the deflated data of binary patches, which
// libgit2 compresses otherwise than git (git am applies both:
// TestWriteRangeDiffMboxAppliesWithGitAm).
func comparableMbox(s string) string {
	var out []string
	inBinary := false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case l == "GIT binary patch":
			inBinary = true
		case inBinary && l == "":
		case inBinary && (strings.HasPrefix(l, "diff --git ") || strings.HasPrefix(l, "From ")):
			inBinary = false
		case inBinary:
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// rangeSpellingStory is a branch whose mails and diffs hit the corners of
// git's spelling: long subjects, ASCII and not, a diffstat that must scale
// its graph and shorten its names, renames into directories and with CRLF
// lines, and names git quotes.
func rangeSpellingStory(t *testing.T) (*historyFixture, string, string) {
	t.Helper()
	f := newHistFixture(t)
	f.write("docs/guide.md", numbered("guide", 12))
	f.write("crlf.txt", strings.ReplaceAll(numbered("crlf", 10), "\n", "\r\n"))
	f.write("src/pkg/a.go", numbered("a", 40))
	base := f.commit(1, "base")
	f.git(2, "checkout", "-q", "-b", "topic")
	if err := os.MkdirAll(filepath.Join(f.work, "docs/manual"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(f.work, "docs/guide.md"), filepath.Join(f.work, "docs/manual/guide.md")); err != nil {
		t.Fatal(err)
	}
	f.write("docs/manual/guide.md", numbered("guide", 12)+"guide 13\n")
	f.write("a-rather-long-directory-name/with-a-long-file-name-inside-it.txt", numbered("long", 3))
	f.write("many.txt", numbered("many", 200))
	f.commit(3, "This subject is long enough that git format-patch has to fold it over two lines of the header")
	if err := os.Rename(filepath.Join(f.work, "crlf.txt"), filepath.Join(f.work, "src/crlf.txt")); err != nil {
		t.Fatal(err)
	}
	f.write("src/crlf.txt", strings.ReplaceAll(numbered("crlf", 10), "\n", "\r\n")+"crlf 11\r\n")
	f.write(`tab	and "quote".txt`, "odd\n")
	f.write("src/pkg/a.go", strings.Replace(numbered("a", 40), "a 20\n", "a twenty\n", 1))
	f.commit(4, "Ünïcödé subject long enough to be folded: ça fait beaucoup de caractères à encoder, vraiment\n\nCorps en français.")
	f.write("many.txt", numbered("many", 150))
	f.commit(5, "fewer = more? _underscores_ and =?odd?= words")
	f.write("by-the-doctor.txt", "who\n")
	f.git(6, "add", "-A")
	f.git(6, "commit", "-q", "-m", "an author git quotes", "--author", `Dr. Who (the "Doctor" \ of Gallifrey) <who@example.com>`)
	head := strings.TrimSpace(f.git(6, "rev-parse", "HEAD"))
	f.publish()
	return f, base, head
}

func TestWriteRangeDiffSpellsLikeGit(t *testing.T) {
	f, base, head := rangeSpellingStory(t)
	sameText(t, "git diff", rangeDiff(t, f, base, head, ports.CommitDiffUnified), historyGitAt(t, f.bare, 0, "diff", base, head))
	mbox := rangeDiff(t, f, base, head, ports.CommitDiffMbox)
	if !strings.Contains(mbox, `From: "Dr. Who (the \"Doctor\" \\ of Gallifrey)" <who@example.com>`) {
		t.Fatalf("no quoted author in\n%s", mbox)
	}
	sameText(t, "git format-patch", mbox,
		historyGitAt(t, f.bare, 0, "format-patch", "--no-signature", "--stdout", base+".."+head))
}

func TestRangeFilesSkipTo(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	all := rangeAllFiles()
	for _, c := range []struct {
		skipTo      string
		page, limit int
		want        []ports.RangeFile
		total       int
	}{
		{"new-name.txt", 1, 10, all[3:], 5}, {"new-name.txt", 2, 2, all[5:7], 5}, {"a.txt", 1, 10, all, 8},
		{"ünï 文件.txt", 1, 10, all[7:], 1}, {"absent.txt", 1, 10, []ports.RangeFile{}, 0}, {"old-name.txt", 1, 10, []ports.RangeFile{}, 0},
	} {
		files, total, err := f.s.RangeFiles(context.Background(), f.p, ids["c2"], ids["f3"],
			ports.RangeFileQuery{SkipTo: c.skipTo, Page: ports.ListOptions{Page: c.page, Limit: c.limit}})
		is.NoErr(err)
		is.Equal(total, c.total) // files from c.skipTo on
		is.Equal(files, c.want)  // page c.page of c.limit from c.skipTo
	}
}

func TestRangeFilesIgnoringWhitespace(t *testing.T) {
	is := is.New(t)
	f, ids := rangeStory(t)
	for mode, flag := range map[ports.DiffWhitespace]string{ports.DiffIgnoreAllWhitespace: "-w",
		ports.DiffIgnoreWhitespaceChange: "-b", ports.DiffIgnoreWhitespaceEOL: "--ignore-space-at-eol"} {
		files, _, err := f.s.RangeFiles(context.Background(), f.p, ids["c2"], ids["f3"],
			ports.RangeFileQuery{Whitespace: mode, Page: ports.ListOptions{Page: 1, Limit: 50}})
		is.NoErr(err)
		numstat := historyGitAt(t, f.bare, 0, "-c", "core.quotePath=false", "diff", "--numstat", flag, ids["c1"], ids["f3"])
		for _, file := range files {
			if file.Binary || file.Additions+file.Deletions == 0 {
				continue
			}
			path := file.Path
			if file.PreviousPath != "" {
				path = file.PreviousPath + " => " + file.Path
			}
			is.True(strings.Contains(numstat, fmt.Sprint(file.Additions)+"\t"+fmt.Sprint(file.Deletions)+"\t"+path+"\n")) // git diff's counts with flag
		}
	}
}
