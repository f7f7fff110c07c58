package libgit2_test

import (
	"context"
	"errors"
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
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// historyBase is the date of the fixtures' first commit; commit n is n minutes later.
var historyBase = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// historyFixture is a repository built with the git CLI: a work tree and the
// bare copy the adapter reads.
type historyFixture struct {
	t    *testing.T
	s    *libgit2.Storage
	p    ports.RepoPath
	work string
	bare string
}

// historyGitAt runs git in dir with both dates set to minute n after historyBase
// and returns its standard output, untrimmed.
func historyGitAt(t *testing.T, dir string, minute int, args ...string) string {
	t.Helper()
	when := historyBase.Add(time.Duration(minute) * time.Minute).Format(time.RFC3339)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir,
		"GIT_AUTHOR_NAME=Zoë Author", "GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=Carl Committer", "GIT_COMMITTER_EMAIL=committer@example.com",
		"GIT_AUTHOR_DATE="+when, "GIT_COMMITTER_DATE="+when,
	)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// newHistFixture starts an empty work tree on main.
func newHistFixture(t *testing.T) *historyFixture {
	t.Helper()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "history"}
	f := &historyFixture{t: t, s: s, p: p, work: filepath.Join(t.TempDir(), "work"), bare: repoDir(root, p)}
	if err := os.MkdirAll(f.work, 0o755); err != nil {
		t.Fatal(err)
	}
	f.git(0, "init", "-q", "-b", "main")
	return f
}

func (f *historyFixture) git(minute int, args ...string) string {
	f.t.Helper()
	return historyGitAt(f.t, f.work, minute, args...)
}

// write puts content at path in the work tree.
func (f *historyFixture) write(path, content string) {
	f.t.Helper()
	full := filepath.Join(f.work, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// commit stages everything and commits at minute, returning the id.
func (f *historyFixture) commit(minute int, msg string) string {
	f.t.Helper()
	f.git(minute, "add", "-A")
	f.git(minute, "commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(f.git(minute, "rev-parse", "HEAD"))
}

// publish copies the work repository's branches and tags to the bare
// repository the adapter reads.
func (f *historyFixture) publish() {
	f.t.Helper()
	if err := os.RemoveAll(f.bare); err != nil {
		f.t.Fatal(err)
	}
	historyGitAt(f.t, filepath.Dir(f.work), 0, "clone", "-q", "--bare", f.work, f.bare)
}

// log runs git log in the bare repository and returns the ids it lists.
func (f *historyFixture) log(args ...string) []string {
	f.t.Helper()
	out := historyGitAt(f.t, f.bare, 0, append([]string{"log", "--format=%H"}, args...)...)
	return strings.Fields(out)
}

// historyStory builds the fixture most tests share: two branches merged with
// interleaved dates, a tie, a rename, a binary file, a unicode name, a
// deletion, and a tag.
//
//	minute  main                         feature
//	1       c1 add README.md dir/a.txt
//	2       c2 change dir/a.txt
//	4                                    f1 add feature.txt (branches at c2)
//	5       c3 add bin.dat (binary)
//	7       c4 rename README.md           f2 change dir/a.txt, feature.txt (tie)
//	8       m  merge feature
//	9       c5 add unicode name, change dir/a.txt
//	10      c6 delete feature.txt
func historyStory(t *testing.T) (*historyFixture, map[string]string) {
	t.Helper()
	f := newHistFixture(t)
	ids := map[string]string{}
	f.write("README.md", "# History\n\nA test repository.\n")
	f.write("dir/a.txt", "one\ntwo\nthree\n")
	ids["c1"] = f.commit(1, "first commit\n\nWith a body.")
	f.write("dir/a.txt", "one\n2\nthree\n")
	ids["c2"] = f.commit(2, "change a")
	f.git(3, "checkout", "-q", "-b", "feature")
	f.write("feature.txt", "feature\n")
	ids["f1"] = f.commit(4, "add feature")
	f.git(5, "checkout", "-q", "main")
	f.write("bin.dat", "\x00\x01\x02binary\x00\xff")
	ids["c3"] = f.commit(5, "add binary")
	if err := os.Mkdir(filepath.Join(f.work, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.git(7, "mv", "README.md", "docs/README.md")
	ids["c4"] = f.commit(7, "move readme")
	f.git(7, "checkout", "-q", "feature")
	f.write("dir/a.txt", "zero\none\n2\nthree\n")
	f.write("feature.txt", "feature\nmore\n")
	ids["f2"] = f.commit(7, "feature work")
	f.git(8, "checkout", "-q", "main")
	f.git(8, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	ids["m"] = strings.TrimSpace(f.git(8, "rev-parse", "HEAD"))
	f.write("ünïcödé 文件.txt", "héllo\n")
	f.write("dir/a.txt", "zero\none\n2\nthree\nfour\n")
	ids["c5"] = f.commit(9, "unicode ✓")
	f.git(10, "rm", "-q", "feature.txt")
	ids["c6"] = f.commit(10, "drop feature")
	f.git(10, "tag", "v1", ids["c4"])
	f.publish()
	return f, ids
}

// historyList calls ListCommits and returns the ids and the total.
func historyList(t *testing.T, f *historyFixture, q ports.CommitListQuery, page, limit int) ([]string, int64) {
	t.Helper()
	list, total, err := f.s.ListCommits(context.Background(), f.p, q, ports.ListOptions{Page: page, Limit: limit})
	if err != nil {
		t.Fatalf("ListCommits(%+v): %v", q, err)
	}
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	return ids, total
}

func TestHistoryListMatchesGitLog(t *testing.T) {
	f, ids := historyStory(t)
	since := historyBase.Add(5 * time.Minute)
	until := historyBase.Add(8 * time.Minute)
	cases := []struct {
		name string
		q    ports.CommitListQuery
		git  []string
	}{
		{"default branch", ports.CommitListQuery{}, []string{"main"}},
		{"branch", ports.CommitListQuery{Ref: "feature"}, []string{"feature"}},
		{"tag", ports.CommitListQuery{Ref: "v1"}, []string{"v1"}},
		{"short id", ports.CommitListQuery{Ref: ids["c2"][:8]}, []string{ids["c2"]}},
		{"not", ports.CommitListQuery{Ref: "main", Not: "feature"}, []string{"main", "--not", "feature"}},
		{"not ancestor", ports.CommitListQuery{Ref: "feature", Not: "main"}, []string{"feature", "--not", "main"}},
		{"file", ports.CommitListQuery{Path: "dir/a.txt"}, []string{"main", "--", "dir/a.txt"}},
		{"directory", ports.CommitListQuery{Path: "dir"}, []string{"main", "--", "dir"}},
		{"file merged in", ports.CommitListQuery{Path: "feature.txt"}, []string{"main", "--", "feature.txt"}},
		{"renamed file", ports.CommitListQuery{Path: "docs/README.md"}, []string{"main", "--", "docs/README.md"}},
		{"old name", ports.CommitListQuery{Path: "README.md"}, []string{"main", "--", "README.md"}},
		{"unicode path", ports.CommitListQuery{Path: "ünïcödé 文件.txt"}, []string{"main", "--", "ünïcödé 文件.txt"}},
		{"path and not", ports.CommitListQuery{Path: "dir/a.txt", Not: "feature"}, []string{"main", "--not", "feature", "--", "dir/a.txt"}},
		{"since", ports.CommitListQuery{Since: since}, []string{"main", "--since=" + since.Format(time.RFC3339)}},
		{"until", ports.CommitListQuery{Until: until}, []string{"main", "--until=" + until.Format(time.RFC3339)}},
		{"since and until and path", ports.CommitListQuery{Since: since, Until: until, Path: "dir/a.txt"},
			[]string{"main", "--since=" + since.Format(time.RFC3339), "--until=" + until.Format(time.RFC3339), "--", "dir/a.txt"}},
		{"absent path", ports.CommitListQuery{Path: "nope"}, []string{"main", "--", "nope"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := f.log(tc.git...)
			got, total := historyList(t, f, tc.q, 1, 50)
			if !slices.Equal(got, want) {
				t.Fatalf("ListCommits = %v\ngit log    = %v", got, want)
			}
			if total != int64(len(want)) {
				t.Fatalf("total %d, want %d", total, len(want))
			}
			// Pages of two add up to the same list, with the same total.
			var paged []string
			for page := 1; page <= len(want)/2+2; page++ {
				ids, total := historyList(t, f, tc.q, page, 2)
				if total != int64(len(want)) {
					t.Fatalf("page %d total %d, want %d", page, total, len(want))
				}
				paged = append(paged, ids...)
			}
			if !slices.Equal(paged, want) {
				t.Fatalf("pages = %v, want %v", paged, want)
			}
		})
	}
}

func TestHistoryListOrderFollowsCommitDates(t *testing.T) {
	f, ids := historyStory(t)
	got, _ := historyList(t, f, ports.CommitListQuery{}, 1, 50)
	want := []string{ids["c6"], ids["c5"], ids["m"], ids["c4"], ids["f2"], ids["c3"], ids["f1"], ids["c2"], ids["c1"]}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestHistoryListDetails(t *testing.T) {
	f, ids := historyStory(t)
	list, _, err := f.s.ListCommits(context.Background(), f.p, ports.CommitListQuery{
		Ref: ids["m"], Extras: ports.CommitExtras{Files: true, Stats: true, Signature: true},
	}, ports.ListOptions{Page: 1, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 {
		t.Fatalf("%d commits", len(list))
	}
	m := list[0]
	if m.ID != ids["m"] || !slices.Equal(m.ParentIDs, []string{ids["c4"], ids["f2"]}) {
		t.Fatalf("merge %s parents %v", m.ID, m.ParentIDs)
	}
	if m.Message != "merge feature\n" || m.Author.Name != "Zoë Author" || m.Committer.Email != "committer@example.com" {
		t.Fatalf("metadata %+v", m.GitCommitInfo)
	}
	if !m.Committer.When.Equal(historyBase.Add(8 * time.Minute)) {
		t.Fatalf("committer date %v", m.Committer.When)
	}
	// A merge's files and stats are against its first parent.
	historyCheckFiles(t, f, m, ids["c4"])
	if m.Signature != nil {
		t.Fatalf("unsigned commit has signature %+v", m.Signature)
	}

	plain, _, err := f.s.ListCommits(context.Background(), f.p, ports.CommitListQuery{}, ports.ListOptions{Page: 1, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plain {
		if c.Files != nil || c.Stats != nil || c.Signature != nil {
			t.Fatalf("extras computed without being asked: %+v", c)
		}
	}
}

// historyNameStatus is git diff --name-status --no-renames as sorted changes.
func historyNameStatus(t *testing.T, f *historyFixture, args ...string) []ports.CommitFileChange {
	t.Helper()
	want := []ports.CommitFileChange{}
	out := historyGitAt(t, f.bare, 0, append([]string{"diff", "--name-status", "--no-renames", "-z"}, args...)...)
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		st := map[string]ports.CommitFileStatus{"A": ports.CommitFileAdded, "D": ports.CommitFileRemoved,
			"M": ports.CommitFileModified, "T": ports.CommitFileModified}[fields[i]]
		want = append(want, ports.CommitFileChange{Path: fields[i+1], Status: st})
	}
	slices.SortFunc(want, func(a, b ports.CommitFileChange) int { return strings.Compare(a.Path, b.Path) })
	return want
}

// historyCheckFiles compares a commit's files and stats with git diff against parent.
func historyCheckFiles(t *testing.T, f *historyFixture, c ports.CommitDetail, parent string) {
	t.Helper()
	want := historyNameStatus(t, f, parent, c.ID)
	if !slices.Equal(c.Files, want) {
		t.Fatalf("files of %s = %v, git says %v", c.ID, c.Files, want)
	}
	var add, del int
	for _, line := range strings.Split(strings.TrimSpace(historyGitAt(t, f.bare, 0, "diff", "--numstat", "-M", parent, c.ID)), "\n") {
		parts := strings.Fields(line)
		if len(parts) < 3 || parts[0] == "-" {
			continue
		}
		a, _ := strconv.Atoi(parts[0])
		d, _ := strconv.Atoi(parts[1])
		add, del = add+a, del+d
	}
	if c.Stats == nil || *c.Stats != (ports.CommitDiffStats{Additions: add, Deletions: del}) {
		t.Fatalf("stats of %s = %+v, git says +%d -%d", c.ID, c.Stats, add, del)
	}
}

func TestHistoryCommitDetailMatchesGit(t *testing.T) {
	f, ids := historyStory(t)
	for _, name := range []string{"c2", "f1", "c3", "c4", "f2", "m", "c5", "c6"} {
		t.Run(name, func(t *testing.T) {
			d, err := f.s.CommitDetail(context.Background(), f.p, ids[name], ports.CommitExtras{Files: true, Stats: true})
			if err != nil {
				t.Fatal(err)
			}
			historyCheckFiles(t, f, d, d.ParentIDs[0])
		})
	}
	t.Run("root", func(t *testing.T) {
		d, err := f.s.CommitDetail(context.Background(), f.p, ids["c1"], ports.CommitExtras{Files: true, Stats: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []ports.CommitFileChange{{Path: "README.md", Status: ports.CommitFileAdded}, {Path: "dir/a.txt", Status: ports.CommitFileAdded}}
		if !slices.Equal(d.Files, want) || *d.Stats != (ports.CommitDiffStats{Additions: 6}) {
			t.Fatalf("root files %v stats %+v", d.Files, d.Stats)
		}
	})
	t.Run("rename is not a change of lines", func(t *testing.T) {
		d, err := f.s.CommitDetail(context.Background(), f.p, ids["c4"], ports.CommitExtras{Files: true, Stats: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []ports.CommitFileChange{{Path: "README.md", Status: ports.CommitFileRemoved}, {Path: "docs/README.md", Status: ports.CommitFileAdded}}
		if !slices.Equal(d.Files, want) || *d.Stats != (ports.CommitDiffStats{}) {
			t.Fatalf("rename files %v stats %+v", d.Files, d.Stats)
		}
	})
	t.Run("refs", func(t *testing.T) {
		for ref, want := range map[string]string{"main": ids["c6"], "feature": ids["f2"], "v1": ids["c4"], ids["c3"][:10]: ids["c3"]} {
			d, err := f.s.CommitDetail(context.Background(), f.p, ref, ports.CommitExtras{})
			if err != nil || d.ID != want {
				t.Fatalf("CommitDetail(%s) = %s, %v; want %s", ref, d.ID, err, want)
			}
		}
	})
}

func TestHistoryTypeChangeIsModified(t *testing.T) {
	f := newHistFixture(t)
	f.write("link", "target\n")
	f.commit(1, "file")
	if err := os.Remove(filepath.Join(f.work, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("elsewhere", filepath.Join(f.work, "link")); err != nil {
		t.Fatal(err)
	}
	id := f.commit(2, "now a link")
	f.publish()
	d, err := f.s.CommitDetail(context.Background(), f.p, id, ports.CommitExtras{Files: true, Stats: true})
	if err != nil {
		t.Fatal(err)
	}
	historyCheckFiles(t, f, d, d.ParentIDs[0])
}

func TestHistorySignature(t *testing.T) {
	f := newHistFixture(t)
	f.write("a", "a\n")
	plain := f.commit(1, "plain")
	// A commit with a gpgsig header, written by hand: git only needs the
	// header to be there to call the commit signed.
	tree := strings.TrimSpace(f.git(2, "rev-parse", "HEAD^{tree}"))
	sig := "-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n-----END PGP SIGNATURE-----"
	raw := fmt.Sprintf("tree %s\nparent %s\nauthor A <a@example.com> 1709283600 +0000\ncommitter A <a@example.com> 1709283600 +0000\ngpgsig %s\n\nsigned\n",
		tree, plain, strings.ReplaceAll(sig, "\n", "\n "))
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir = f.work
	cmd.Stdin = strings.NewReader(raw)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	signed := strings.TrimSpace(string(out))
	f.git(2, "update-ref", "refs/heads/main", signed)
	f.publish()

	d, err := f.s.CommitDetail(context.Background(), f.p, signed, ports.CommitExtras{Signature: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Signature == nil || d.Signature.Signature != sig || !strings.Contains(d.Signature.Payload, "tree "+tree) ||
		strings.Contains(d.Signature.Payload, "gpgsig") {
		t.Fatalf("signature %+v", d.Signature)
	}
	d, err = f.s.CommitDetail(context.Background(), f.p, plain, ports.CommitExtras{Signature: true})
	if err != nil || d.Signature != nil {
		t.Fatalf("plain commit: %+v, %v", d.Signature, err)
	}
}

func TestHistoryErrors(t *testing.T) {
	f, ids := historyStory(t)
	ctx := context.Background()
	notFound := func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("want not found, got %v", err)
		}
	}
	_, _, err := f.s.ListCommits(ctx, f.p, ports.CommitListQuery{Ref: "nope"}, ports.ListOptions{Page: 1, Limit: 10})
	notFound(t, err)
	_, _, err = f.s.ListCommits(ctx, f.p, ports.CommitListQuery{Not: "nope"}, ports.ListOptions{Page: 1, Limit: 10})
	notFound(t, err)
	_, err = f.s.CommitDetail(ctx, f.p, strings.Repeat("0", 40), ports.CommitExtras{})
	notFound(t, err)
	_, err = f.s.CommitDetail(ctx, f.p, "main\x00", ports.CommitExtras{})
	notFound(t, err)
	_, err = f.s.CompareCommits(ctx, f.p, "main", "nope", false, ports.CommitExtras{})
	notFound(t, err)
	_, err = f.s.CompareCommits(ctx, f.p, "nope", "main", false, ports.CommitExtras{})
	notFound(t, err)
	err = f.s.WriteCommitDiff(ctx, f.p, "nope", ports.CommitDiffUnified, &strings.Builder{})
	notFound(t, err)
	_, err = f.s.CommitDetail(ctx, ports.RepoPath{Owner: "alice", Name: "absent"}, ids["c1"], ports.CommitExtras{})
	notFound(t, err)

	// An empty repository has no default branch to list.
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "bob", Name: "empty"}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.ListCommits(ctx, p, ports.CommitListQuery{}, ports.ListOptions{Page: 1, Limit: 10})
	notFound(t, err)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := f.s.ListCommits(cancelled, f.p, ports.CommitListQuery{}, ports.ListOptions{Page: 1, Limit: 10}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestHistoryCompare(t *testing.T) {
	f, ids := historyStory(t)
	f.git(11, "checkout", "-q", "-b", "topic", ids["c4"])
	f.write("topic.txt", "topic\n")
	f.write("dir/a.txt", "topic version\n")
	ids["t1"] = f.commit(11, "topic")
	f.write("topic.txt", "topic 2\n")
	ids["t2"] = f.commit(12, "topic 2")
	f.publish()
	ctx := context.Background()

	for _, direct := range []bool{false, true} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			cmp, err := f.s.CompareCommits(ctx, f.p, "main", "topic", direct, ports.CommitExtras{Stats: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cmp.Commits {
				got = append(got, c.ID)
				if c.Stats == nil {
					t.Fatalf("no stats for %s", c.ID)
				}
			}
			if want := f.log("main..topic"); !slices.Equal(got, want) {
				t.Fatalf("commits %v, want %v", got, want)
			}
			if cmp.BaseID != ids["c6"] || cmp.HeadID != ids["t2"] || cmp.MergeBaseID != ids["c4"] {
				t.Fatalf("ids %+v", cmp)
			}
			sep := "..."
			if direct {
				sep = ".."
			}
			if want := historyNameStatus(t, f, "main"+sep+"topic"); !slices.Equal(cmp.Files, want) {
				t.Fatalf("files %v, want %v", cmp.Files, want)
			}
		})
	}
	t.Run("same commit", func(t *testing.T) {
		cmp, err := f.s.CompareCommits(ctx, f.p, "main", ids["c6"], false, ports.CommitExtras{})
		if err != nil || len(cmp.Commits) != 0 || len(cmp.Files) != 0 {
			t.Fatalf("%+v, %v", cmp, err)
		}
	})
	t.Run("ancestor head", func(t *testing.T) {
		cmp, err := f.s.CompareCommits(ctx, f.p, "main", "v1", false, ports.CommitExtras{})
		if err != nil || len(cmp.Commits) != 0 || len(cmp.Files) != 0 {
			t.Fatalf("%+v, %v", cmp, err)
		}
	})
}

func TestHistoryCountIsCachedPerFilter(t *testing.T) {
	f, _ := historyStory(t)
	_, before := historyList(t, f, ports.CommitListQuery{}, 1, 1)
	_, beforePath := historyList(t, f, ports.CommitListQuery{Path: "dir/a.txt"}, 1, 1)
	// A new commit on main gives a new start commit, so a new count.
	work := filepath.Join(t.TempDir(), "w")
	historyGitAt(t, filepath.Dir(work), 0, "clone", "-q", f.bare, work)
	historyGitAt(t, work, 20, "commit", "-q", "--allow-empty", "-m", "more")
	historyGitAt(t, work, 20, "push", "-q", "origin", "HEAD:main")
	_, after := historyList(t, f, ports.CommitListQuery{}, 1, 1)
	_, afterPath := historyList(t, f, ports.CommitListQuery{Path: "dir/a.txt"}, 1, 1)
	if after != before+1 || afterPath != beforePath {
		t.Fatalf("totals %d→%d, path %d→%d", before, after, beforePath, afterPath)
	}
	if want := int64(len(f.log("main"))); after != want {
		t.Fatalf("total %d after a push, git counts %d", after, want)
	}
	// A rewritten branch is counted from scratch, not from its old tip.
	historyGitAt(t, work, 21, "reset", "-q", "--hard", "HEAD~3")
	historyGitAt(t, work, 21, "commit", "-q", "--allow-empty", "-m", "rewritten")
	historyGitAt(t, work, 21, "push", "-q", "-f", "origin", "HEAD:main")
	_, rewritten := historyList(t, f, ports.CommitListQuery{}, 1, 1)
	if want := int64(len(f.log("main"))); rewritten != want {
		t.Fatalf("total %d after a forced push, git counts %d", rewritten, want)
	}
	// Another branch, then main again: each has its own count.
	_, feature := historyList(t, f, ports.CommitListQuery{Ref: "feature"}, 1, 1)
	_, again := historyList(t, f, ports.CommitListQuery{}, 1, 1)
	if feature != int64(len(f.log("feature"))) || again != rewritten {
		t.Fatalf("feature %d, main %d", feature, again)
	}
}

// A storage started later (a restarted server) reads the unfiltered counts
// the repository keeps on disk instead of walking the history again, and a
// damaged counts file only costs a recount.
func TestHistoryCountSurvivesRestart(t *testing.T) {
	f, _ := historyStory(t)
	_, total := historyList(t, f, ports.CommitListQuery{}, 1, 1)
	countsPath := filepath.Join(f.bare, "depot-commit-counts")
	data, err := os.ReadFile(countsPath)
	if err != nil {
		t.Fatalf("counts file: %v", err)
	}
	head := strings.TrimSpace(f.git(0, "rev-parse", "main"))
	if want := fmt.Sprintf("%s %d\n", head, total); !strings.Contains(string(data), want) {
		t.Fatalf("counts file %q lacks %q", data, want)
	}
	// A planted count proves the restarted storage reads the file.
	if err := os.WriteFile(countsPath, []byte("garbage\n"+head+" 4242\nzz 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	restarted, err := libgit2.New(filepath.Dir(filepath.Dir(f.bare)), slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	_, got, err := restarted.ListCommits(context.Background(), f.p, ports.CommitListQuery{}, ports.ListOptions{Page: 1, Limit: 1})
	if err != nil || got != 4242 {
		t.Fatalf("restarted total %d, %v; want the persisted 4242", got, err)
	}
	// Without the file the count is computed again.
	if err := os.Remove(countsPath); err != nil {
		t.Fatal(err)
	}
	fresh, err := libgit2.New(filepath.Dir(filepath.Dir(f.bare)), slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err = fresh.ListCommits(context.Background(), f.p, ports.CommitListQuery{}, ports.ListOptions{Page: 1, Limit: 1}); err != nil || got != total {
		t.Fatalf("fresh total %d, %v; want %d", got, err, total)
	}
}

// Warming counts a branch's history ahead of its first listing and keeps
// the count on disk; ids that are not commits are skipped.
func TestHistoryWarmCommitCounts(t *testing.T) {
	f, _ := historyStory(t)
	head := strings.TrimSpace(f.git(0, "rev-parse", "main"))
	tree := strings.TrimSpace(f.git(0, "rev-parse", "main^{tree}"))
	if err := f.s.WarmCommitCounts(context.Background(), f.p, []string{tree, head}); err != nil {
		t.Fatalf("warm: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(f.bare, "depot-commit-counts"))
	want := fmt.Sprintf("%s %d\n", head, len(f.log("main")))
	if err != nil || string(data) != want {
		t.Fatalf("counts file %q, %v; want %q", data, err, want)
	}
	if err := f.s.WarmCommitCounts(context.Background(), f.p, []string{"not-hex"}); err == nil {
		t.Fatal("a malformed id was accepted")
	}
	// SkipTotal leaves the count alone.
	list, total, err := f.s.ListCommits(context.Background(), f.p, ports.CommitListQuery{SkipTotal: true},
		ports.ListOptions{Page: 1, Limit: 2})
	if err != nil || total != -1 || len(list) != 2 {
		t.Fatalf("SkipTotal: %d commits, total %d, %v", len(list), total, err)
	}
}
