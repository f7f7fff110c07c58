package libgit2_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// treesFix is a repository built with the git CLI and pushed into a Storage.
type treesFix struct {
	s    *libgit2.Storage
	p    ports.RepoPath
	bare string
	work string
	// bin is the binary file's bytes.
	bin []byte
}

// treesWrite writes content at rel under dir, creating parents.
func treesWrite(t *testing.T, dir, rel string, content []byte) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// treesFixture builds a history with every kind of entry: text, binary and
// executable files, a symbolic link, a submodule, unicode names, a
// 1,000-file directory, a branch with a slash, a tag, a plain merge and a
// merge that changes a file against both parents.
func treesFixture(t *testing.T) treesFix {
	t.Helper()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "trees"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		t.Fatal(err)
	}
	f := treesFix{s: s, p: p, bare: repoDir(root, p), work: t.TempDir()}
	w := f.work
	runGit(t, w, "init", "-q", "-b", "main")
	f.bin = make([]byte, 3000)
	if _, err := rand.Read(f.bin); err != nil {
		t.Fatal(err)
	}
	f.bin[0], f.bin[10] = 0, 0
	treesWrite(t, w, "README.md", []byte("# Trees\n"))
	treesWrite(t, w, "bin/data.bin", f.bin)
	treesWrite(t, w, "image.png", append([]byte("\x89PNG\r\n\x1a\n"), f.bin[:100]...))
	treesWrite(t, w, "exec.sh", []byte("#!/bin/sh\necho hi\n"))
	if err := os.Chmod(filepath.Join(w, "exec.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("README.md", filepath.Join(w, "link")); err != nil {
		t.Fatal(err)
	}
	treesWrite(t, w, "dir/a.txt", []byte("a\n"))
	treesWrite(t, w, "dir/sub/deep.txt", []byte("deep\n"))
	treesWrite(t, w, "ünïcødé/文件.txt", []byte("unicode\n"))
	treesWrite(t, w, "empty.txt", nil)
	treesWrite(t, w, ".gitmodules", []byte("[submodule \"mod\"]\n\tpath = mod\n\turl = https://example.com/mod.git\n"))
	// An empty directory stands for the submodule's checkout, so that
	// commit -a does not take it for deleted.
	if err := os.Mkdir(filepath.Join(w, "mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, w, "add", "-A")
	runGit(t, w, "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,mod")
	runGit(t, w, "commit", "-q", "-m", "one")
	runGit(t, w, "tag", "v1")
	runGit(t, w, "tag", "-a", "-m", "annotated", "v1-annotated")

	treesWrite(t, w, "README.md", []byte("# Trees\n\nTwo.\n"))
	runGit(t, w, "commit", "-q", "-am", "two")
	runGit(t, w, "checkout", "-q", "-b", "feature/x")
	treesWrite(t, w, "dir/a.txt", []byte("a from the side\n"))
	runGit(t, w, "commit", "-q", "-am", "side")
	runGit(t, w, "checkout", "-q", "main")
	treesWrite(t, w, "exec.sh", []byte("#!/bin/sh\necho main\n"))
	runGit(t, w, "commit", "-q", "-am", "main")
	runGit(t, w, "merge", "-q", "--no-ff", "-m", "merge side", "feature/x")

	// A merge whose README.md is neither parent's.
	runGit(t, w, "checkout", "-q", "-b", "other")
	treesWrite(t, w, "README.md", []byte("other\n"))
	runGit(t, w, "commit", "-q", "-am", "other readme")
	runGit(t, w, "checkout", "-q", "main")
	treesWrite(t, w, "README.md", []byte("main\n"))
	runGit(t, w, "commit", "-q", "-am", "main readme")
	if out, err := gitOutput(t, w, "merge", "-q", "other"); err == nil {
		t.Fatalf("the merge should conflict: %s", out)
	}
	treesWrite(t, w, "README.md", []byte("resolved\n"))
	runGit(t, w, "commit", "-q", "-am", "merge other")

	for i := range 1000 {
		treesWrite(t, w, fmt.Sprintf("many/f%04d.txt", i), []byte(strconv.Itoa(i)+"\n"))
	}
	runGit(t, w, "add", "-A")
	runGit(t, w, "commit", "-q", "-m", "many")
	runGit(t, w, "push", "-q", f.bare, "main", "feature/x", "other", "--tags")
	return f
}

// TestTrees reads one fixture in many ways; the subtests that add commits
// come last.
func TestTrees(t *testing.T) {
	f := treesFixture(t)
	t.Run("ReadPathFiles", func(t *testing.T) { treesReadPathFiles(t, f) })
	t.Run("ReadPathLinkAndSubmodule", func(t *testing.T) { treesReadPathLinkAndSubmodule(t, f) })
	t.Run("ReadPathDirectories", func(t *testing.T) { treesReadPathDirectories(t, f) })
	t.Run("Refs", func(t *testing.T) { treesRefs(t, f) })
	t.Run("ReadPathErrors", func(t *testing.T) { treesReadPathErrors(t, f) })
	t.Run("OpenBlob", func(t *testing.T) { treesOpenBlob(t, f) })
	t.Run("Tree", func(t *testing.T) { treesTree(t, f) })
	t.Run("Blob", func(t *testing.T) { treesBlob(t, f) })
	t.Run("LastCommits", func(t *testing.T) { treesLastCommits(t, f) })
	t.Run("OpenBlobLarge", func(t *testing.T) { treesOpenBlobLarge(t, f) })
}

func (f treesFix) read(t *testing.T, q ports.GitPathQuery) ports.GitPathResult {
	t.Helper()
	res, err := f.s.ReadPath(context.Background(), f.p, q)
	if err != nil {
		t.Fatalf("ReadPath(%+v): %v", q, err)
	}
	return res
}

// treesLsTree parses `git ls-tree -l` output into entries keyed by path, in order.
func treesLsTree(t *testing.T, dir string, args ...string) []ports.GitTreeEntry {
	t.Helper()
	out := runGit(t, dir, append([]string{"-c", "core.quotePath=false", "ls-tree", "-l"}, args...)...)
	var entries []ports.GitTreeEntry
	for _, line := range strings.Split(out, "\n") {
		if line == "" {
			continue
		}
		meta, name, _ := strings.Cut(line, "\t")
		fields := strings.Fields(meta)
		mode, _ := strconv.ParseInt(fields[0], 8, 64)
		var size int64
		if fields[3] != "-" {
			size, _ = strconv.ParseInt(fields[3], 10, 64)
		}
		entries = append(entries, ports.GitTreeEntry{Path: name, Mode: int(mode), Type: fields[1], ID: fields[2], Size: size})
	}
	return entries
}

func treesReadPathFiles(t *testing.T, f treesFix) {
	for _, c := range []struct {
		path string
		mode int
	}{
		{"README.md", 0o100644}, {"bin/data.bin", 0o100644}, {"exec.sh", 0o100755},
		{"ünïcødé/文件.txt", 0o100644}, {"empty.txt", 0o100644}, {"many/f0999.txt", 0o100644},
	} {
		res := f.read(t, ports.GitPathQuery{Path: c.path, Content: true, MaxContent: 1 << 20})
		e := res.Entry
		want := runGit(t, f.work, "rev-parse", "main:"+c.path)
		if e.Type != ports.EntryFile || e.ID != want || e.Mode != c.mode || e.Path != c.path || e.Name != filepath.Base(c.path) {
			t.Errorf("%s: got %+v, want file %s mode %o", c.path, e, want, c.mode)
		}
		content, err := os.ReadFile(filepath.Join(f.work, c.path))
		if err != nil {
			t.Fatal(err)
		}
		if e.Content == nil || !bytes.Equal(e.Content, content) || e.Size != int64(len(content)) {
			t.Errorf("%s: content %q (size %d), want %q", c.path, e.Content, e.Size, content)
		}
		if res.Revision.Kind != ports.RevisionBranch || res.Revision.Name != "main" ||
			res.Revision.CommitID != runGit(t, f.work, "rev-parse", "main") {
			t.Errorf("%s: revision %+v", c.path, res.Revision)
		}
	}
	// Over the size asked for: described, not read.
	res := f.read(t, ports.GitPathQuery{Path: "bin/data.bin", Content: true, MaxContent: 100})
	if res.Entry.Content != nil || res.Entry.Size != 3000 {
		t.Errorf("large file: %d bytes read, size %d", len(res.Entry.Content), res.Entry.Size)
	}
}

func treesReadPathLinkAndSubmodule(t *testing.T, f treesFix) {
	link := f.read(t, ports.GitPathQuery{Path: "link", Content: true, MaxContent: 1 << 20}).Entry
	if link.Type != ports.EntrySymlink || link.Target != "README.md" || link.Mode != 0o120000 || link.Content != nil ||
		link.ID != runGit(t, f.work, "rev-parse", "main:link") || link.Size != int64(len("README.md")) {
		t.Errorf("link: %+v", link)
	}
	mod := f.read(t, ports.GitPathQuery{Path: "mod"}).Entry
	if mod.Type != ports.EntrySubmodule || mod.SubmoduleURL != "https://example.com/mod.git" ||
		mod.ID != strings.Repeat("1", 40) || mod.Mode != 0o160000 {
		t.Errorf("submodule: %+v", mod)
	}
}

func treesReadPathDirectories(t *testing.T, f treesFix) {
	for _, dir := range []string{"", "dir", "many", "ünïcødé", "dir/sub"} {
		res := f.read(t, ports.GitPathQuery{Path: dir, List: true})
		if res.Entry.Type != ports.EntryDir || res.Entry.Path != dir {
			t.Errorf("%q: entry %+v", dir, res.Entry)
		}
		spec := "main:" + dir
		if dir == "" {
			spec = "main^{tree}"
		}
		if res.Entry.ID != runGit(t, f.work, "rev-parse", spec) {
			t.Errorf("%q: tree id %s", dir, res.Entry.ID)
		}
		want := treesLsTree(t, f.work, spec)
		if len(res.Entries) != len(want) {
			t.Fatalf("%q: %d entries, git has %d", dir, len(res.Entries), len(want))
		}
		for i, e := range res.Entries {
			w := want[i]
			full := w.Path
			if dir != "" {
				full = dir + "/" + w.Path
			}
			if e.Name != w.Path || e.Path != full || e.ID != w.ID || e.Mode != w.Mode || e.Size != w.Size || e.Content != nil {
				t.Errorf("%q entry %d: got %+v, git %+v", dir, i, e, w)
			}
		}
	}
	root := f.read(t, ports.GitPathQuery{List: true})
	kinds := map[string]ports.EntryType{}
	for _, e := range root.Entries {
		kinds[e.Name] = e.Type
		if e.Name == "link" && e.Target != "README.md" {
			t.Errorf("listed link target %q", e.Target)
		}
		if e.Name == "mod" && e.SubmoduleURL != "https://example.com/mod.git" {
			t.Errorf("listed submodule URL %q", e.SubmoduleURL)
		}
	}
	for name, kind := range map[string]ports.EntryType{"README.md": ports.EntryFile, "dir": ports.EntryDir,
		"link": ports.EntrySymlink, "mod": ports.EntrySubmodule, "exec.sh": ports.EntryFile} {
		if kinds[name] != kind {
			t.Errorf("%s listed as %q, want %q", name, kinds[name], kind)
		}
	}
	// A directory read without List has no entries.
	if res := f.read(t, ports.GitPathQuery{Path: "dir"}); res.Entries != nil {
		t.Errorf("unlisted directory has entries")
	}
}

func treesLastCommits(t *testing.T, f treesFix) {
	check := func(ref string, res ports.GitPathResult) {
		t.Helper()
		entries := res.Entries
		if entries == nil {
			entries = []ports.GitEntry{res.Entry}
		}
		for _, e := range entries {
			want := runGit(t, f.work, "log", "-1", "--format=%H", ref, "--", e.Path)
			if e.LastCommit == nil || e.LastCommit.ID != want {
				t.Errorf("%s at %s: last commit %v, git says %s", e.Path, ref, e.LastCommit, want)
			}
		}
	}
	for _, ref := range []string{"main", "feature/x", "other", "v1", "main~1", "main~3", "main~3^2", "main~1^2"} {
		rev := runGit(t, f.work, "rev-parse", ref)
		for _, dir := range []string{"", "dir", "dir/sub"} {
			check(ref, f.read(t, ports.GitPathQuery{Ref: rev, Path: dir, List: true, LastCommit: true}))
		}
		for _, file := range []string{"README.md", "exec.sh", "dir/a.txt", "link", "mod"} {
			check(ref, f.read(t, ports.GitPathQuery{Ref: rev, Path: file, LastCommit: true}))
		}
	}
	// The merge that resolved a conflict in README.md is its last change.
	res := f.read(t, ports.GitPathQuery{Path: "README.md", LastCommit: true})
	if res.Entry.LastCommit.Message != "merge other\n" {
		t.Errorf("README.md last changed by %q", res.Entry.LastCommit.Message)
	}
	// A second read is answered from the cache, identically.
	again := f.read(t, ports.GitPathQuery{Path: "README.md", LastCommit: true})
	if again.Entry.LastCommit.ID != res.Entry.LastCommit.ID {
		t.Errorf("cached answer differs")
	}
	// The many files came in the last commit.
	many := f.read(t, ports.GitPathQuery{Path: "many", List: true, LastCommit: true})
	head := runGit(t, f.work, "rev-parse", "main")
	for _, e := range many.Entries {
		if e.LastCommit == nil || e.LastCommit.ID != head {
			t.Fatalf("%s: last commit %v", e.Path, e.LastCommit)
		}
	}
	// New commits on the branch: the walk reuses what it knew.
	treesWrite(t, f.work, "dir/a.txt", []byte("changed again\n"))
	runGit(t, f.work, "commit", "-q", "-am", "again")
	runGit(t, f.work, "push", "-q", f.bare, "main")
	check("main", f.read(t, ports.GitPathQuery{List: true, LastCommit: true}))
	check("main", f.read(t, ports.GitPathQuery{Path: "dir", List: true, LastCommit: true}))
}

func treesRefs(t *testing.T, f treesFix) {
	v1 := runGit(t, f.work, "rev-parse", "v1^{commit}")
	side := runGit(t, f.work, "rev-parse", "feature/x")
	cases := []struct {
		q        ports.GitPathQuery
		kind     ports.RevisionKind
		commit   string
		readPath string
	}{
		{ports.GitPathQuery{Ref: "v1", Path: "README.md"}, ports.RevisionTag, v1, "README.md"},
		{ports.GitPathQuery{Ref: "v1-annotated", Path: "README.md"}, ports.RevisionTag, v1, "README.md"},
		{ports.GitPathQuery{Ref: v1, Path: "README.md"}, ports.RevisionCommit, v1, "README.md"},
		{ports.GitPathQuery{Ref: v1[:10], Path: "README.md"}, ports.RevisionCommit, v1, "README.md"},
		{ports.GitPathQuery{Ref: "feature/x", Path: "dir/a.txt"}, ports.RevisionBranch, side, "dir/a.txt"},
		{ports.GitPathQuery{RefInPath: true, Path: "feature/x/dir/a.txt"}, ports.RevisionBranch, side, "dir/a.txt"},
		{ports.GitPathQuery{RefInPath: true, Path: "v1/README.md"}, ports.RevisionTag, v1, "README.md"},
		{ports.GitPathQuery{RefInPath: true, Path: v1 + "/README.md"}, ports.RevisionCommit, v1, "README.md"},
		// No leading part names a ref: the default branch.
		{ports.GitPathQuery{RefInPath: true, Path: "dir/a.txt"}, ports.RevisionBranch, runGit(t, f.work, "rev-parse", "main"), "dir/a.txt"},
	}
	for _, c := range cases {
		res := f.read(t, c.q)
		if res.Revision.Kind != c.kind || res.Revision.CommitID != c.commit || res.Entry.Path != c.readPath {
			t.Errorf("%+v: got %+v at %s", c.q, res.Revision, res.Entry.Path)
		}
		if want := runGit(t, f.work, "rev-parse", c.commit+":"+c.readPath); res.Entry.ID != want {
			t.Errorf("%+v: blob %s, git has %s", c.q, res.Entry.ID, want)
		}
	}
}

func treesReadPathErrors(t *testing.T, f treesFix) {
	for _, q := range []ports.GitPathQuery{
		{Path: "absent.txt"},
		{Path: "README.md/inside"},
		{Path: "dir/../README.md"},
		{Path: "./README.md"},
		{Path: "dir//a.txt"},
		{Path: "/README.md"},
		{Path: "a\x00b"},
		{Ref: "absent", Path: "README.md"},
		{Ref: "1234567", Path: "README.md"},
		{Ref: "../main", Path: "README.md"},
		{Ref: "main\x00", Path: "README.md"},
		{RefInPath: true, Path: "absent/README.md"},
	} {
		_, err := f.s.ReadPath(context.Background(), f.p, q)
		if !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%+v: %v, want not found", q, err)
		}
	}
	_, err := f.s.ReadPath(context.Background(), ports.RepoPath{Owner: "alice", Name: "absent"}, ports.GitPathQuery{})
	if !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("absent repository: %v", err)
	}
}

func TestTreesReadPathEmptyRepository(t *testing.T) {
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "empty"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []ports.GitPathQuery{{}, {Path: "README.md"}, {RefInPath: true, Path: "main/README.md"}} {
		if _, err := s.ReadPath(context.Background(), p, q); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%+v: %v", q, err)
		}
		if _, _, err := s.OpenBlob(context.Background(), p, q); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("OpenBlob %+v: %v", q, err)
		}
	}
}

// treesReadBlob opens q and reads it all with Read (or WriteTo).
func treesReadBlob(t *testing.T, f treesFix, q ports.GitPathQuery, writeTo bool) (ports.GitPathResult, []byte) {
	t.Helper()
	res, rd, err := f.s.OpenBlob(context.Background(), f.p, q)
	if err != nil {
		t.Fatalf("OpenBlob(%+v): %v", q, err)
	}
	defer rd.Close()
	var buf bytes.Buffer
	if writeTo {
		_, err = rd.(io.WriterTo).WriteTo(&buf)
	} else {
		_, err = io.Copy(&buf, struct{ io.Reader }{rd})
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, buf.Bytes()
}

func treesOpenBlob(t *testing.T, f treesFix) {
	for _, path := range []string{"README.md", "bin/data.bin", "image.png", "ünïcødé/文件.txt", "empty.txt"} {
		for _, writeTo := range []bool{false, true} {
			res, got := treesReadBlob(t, f, ports.GitPathQuery{Path: path}, writeTo)
			want, err := os.ReadFile(filepath.Join(f.work, path))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) || res.Entry.Size != int64(len(want)) || res.Entry.Type != ports.EntryFile {
				t.Errorf("%s: %d bytes, want %d", path, len(got), len(want))
			}
		}
	}
	res, got := treesReadBlob(t, f, ports.GitPathQuery{Path: "link"}, false)
	if string(got) != "README.md" || res.Entry.Type != ports.EntrySymlink {
		t.Errorf("link: %q %+v", got, res.Entry)
	}
	for _, q := range []ports.GitPathQuery{{Path: "dir"}, {Path: "mod"}, {Path: "absent"}, {}, {RefInPath: true, Path: "main"},
		{RefInPath: true, Path: "feature/x/dir"}, {Ref: "absent", Path: "README.md"}} {
		if _, _, err := f.s.OpenBlob(context.Background(), f.p, q); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%+v: %v", q, err)
		}
	}
	// Closed without reading, then read after close.
	_, rd, err := f.s.OpenBlob(context.Background(), f.p, ports.GitPathQuery{Path: "README.md"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Read(make([]byte, 10)); err == nil {
		t.Errorf("read after close succeeded")
	}
}

func treesOpenBlobLarge(t *testing.T, f treesFix) {
	big := make([]byte, 3<<20+17)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	treesWrite(t, f.work, "big.bin", big)
	runGit(t, f.work, "add", "big.bin")
	runGit(t, f.work, "commit", "-q", "-m", "big")
	runGit(t, f.work, "push", "-q", f.bare, "main")
	id := runGit(t, f.work, "rev-parse", "main:big.bin")
	loose := filepath.Join(f.bare, "objects", id[:2], id[2:])
	// A loose object (pushed alone, it was unpacked) is streamed, and a
	// packed one is inflated whole: both read back identically.
	for _, packed := range []bool{false, true} {
		if packed {
			runGit(t, f.bare, "repack", "-adq")
			runGit(t, f.bare, "prune-packed")
		}
		if _, err := os.Stat(loose); (err == nil) == packed {
			t.Fatalf("packed=%v but loose object exists=%v", packed, err == nil)
		}
		for _, writeTo := range []bool{false, true} {
			res, got := treesReadBlob(t, f, ports.GitPathQuery{Path: "big.bin"}, writeTo)
			if !bytes.Equal(got, big) || res.Entry.Size != int64(len(big)) || res.Entry.ID != id {
				t.Errorf("packed=%v writeTo=%v: %d bytes differ from %d", packed, writeTo, len(got), len(big))
			}
		}
	}
}

func treesTree(t *testing.T, f treesFix) {
	ctx := context.Background()
	commit := runGit(t, f.work, "rev-parse", "main")
	tree := runGit(t, f.work, "rev-parse", "main^{tree}")
	for _, rev := range []string{"main", commit, tree, "v1-annotated", runGit(t, f.work, "rev-parse", "v1-annotated")} {
		spec := rev
		want := treesLsTree(t, f.work, spec)
		page, err := f.s.Tree(ctx, f.p, ports.GitTreeQuery{Rev: rev, Limit: 1000})
		if err != nil {
			t.Fatalf("%s: %v", rev, err)
		}
		if page.ID != runGit(t, f.work, "rev-parse", rev+"^{tree}") || page.Total != len(want) || len(page.Entries) != len(want) {
			t.Fatalf("%s: id %s, %d of %d entries, git has %d", rev, page.ID, len(page.Entries), page.Total, len(want))
		}
		for i, e := range page.Entries {
			if e != want[i] {
				t.Errorf("%s entry %d: %+v, git %+v", rev, i, e, want[i])
			}
		}
	}
	// Recursive, paged: the pages put together are git ls-tree -r -t.
	want := treesLsTree(t, f.work, "-r", "-t", "main")
	var got []ports.GitTreeEntry
	for off := 0; ; off += 300 {
		page, err := f.s.Tree(ctx, f.p, ports.GitTreeQuery{Rev: "main", Recursive: true, Offset: off, Limit: 300})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != len(want) {
			t.Fatalf("total %d, git has %d", page.Total, len(want))
		}
		if len(page.Entries) == 0 {
			break
		}
		got = append(got, page.Entries...)
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, git has %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("entry %d: %+v, git %+v", i, got[i], want[i])
		}
	}
	for _, rev := range []string{"absent", strings.Repeat("0", 40), runGit(t, f.work, "rev-parse", "main:README.md"), "", "a\x00"} {
		if _, err := f.s.Tree(ctx, f.p, ports.GitTreeQuery{Rev: rev, Limit: 10}); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%q: %v", rev, err)
		}
	}
}

func treesBlob(t *testing.T, f treesFix) {
	ctx := context.Background()
	id := runGit(t, f.work, "rev-parse", "main:bin/data.bin")
	b, err := f.s.Blob(ctx, f.p, id, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != id || b.Size != 3000 || !bytes.Equal(b.Content, f.bin) {
		t.Errorf("blob %s: size %d, content equal %v", b.ID, b.Size, bytes.Equal(b.Content, f.bin))
	}
	b, err = f.s.Blob(ctx, f.p, strings.ToUpper(id), 100)
	if err != nil || b.Content != nil || b.Size != 3000 {
		t.Errorf("large blob: %v, %d bytes, size %d", err, len(b.Content), b.Size)
	}
	empty, err := f.s.Blob(ctx, f.p, runGit(t, f.work, "rev-parse", "main:empty.txt"), 100)
	if err != nil || empty.Content == nil || len(empty.Content) != 0 {
		t.Errorf("empty blob: %v %v", err, empty.Content)
	}
	for _, bad := range []string{id[:10], runGit(t, f.work, "rev-parse", "main^{tree}"), runGit(t, f.work, "rev-parse", "main"),
		strings.Repeat("0", 40), "main", "zz" + id[2:]} {
		if _, err := f.s.Blob(ctx, f.p, bad, 100); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// treesContent reads path on main, failing the test on error.
func treesContent(t *testing.T, s *libgit2.Storage, p ports.RepoPath, path string) string {
	t.Helper()
	res, err := s.ReadPath(context.Background(), p, ports.GitPathQuery{Ref: "main", Path: path, Content: true, MaxContent: 1 << 20})
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return string(res.Entry.Content)
}

// TestTreesWarmRepositories checks that the repositories kept open between
// reads never serve stale answers: after a delete and re-create at the same
// path, a move, new commits, and repacks that remove loose objects and
// replace packs under them.
func TestTreesWarmRepositories(t *testing.T) {
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "warm"}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	commit(t, s, p, "main", "one", file("a.txt", "first"))
	if got := treesContent(t, s, p, "a.txt"); got != "first" {
		t.Fatalf("a.txt: %q", got)
	}
	// Deleted and made again at the same path.
	if err := s.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadPath(ctx, p, ports.GitPathQuery{Path: "a.txt"}); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("deleted repository: %v", err)
	}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadPath(ctx, p, ports.GitPathQuery{Ref: "main", Path: "a.txt"}); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("re-created empty repository: %v", err)
	}
	commit(t, s, p, "main", "two", file("a.txt", "second"), file("b.txt", "b"))
	if got := treesContent(t, s, p, "a.txt"); got != "second" {
		t.Fatalf("a.txt after re-create: %q", got)
	}
	// Moved away: the old name is gone.
	moved := ports.RepoPath{Owner: "alice", Name: "moved"}
	if err := s.Move(ctx, p, moved); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadPath(ctx, p, ports.GitPathQuery{Path: "a.txt"}); !errors.Is(err, errs.ErrNotFound) {
		t.Errorf("moved repository under its old name: %v", err)
	}
	if got := treesContent(t, s, moved, "b.txt"); got != "b" {
		t.Fatalf("b.txt after move: %q", got)
	}
	// New commits and repacks under a warm repository.
	bare := repoDir(root, moved)
	// big.bin is too large for the blob cache: every read goes to the
	// object database, whose packs the repacks replace.
	big := make([]byte, 200<<10)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	files := []ports.GitFile{file("b.txt", "b"), {Path: "big.bin", Content: big}}
	for i := range 5 {
		want := fmt.Sprintf("round %d", i)
		files = append(files, file(fmt.Sprintf("f%d.txt", i), want))
		commit(t, s, moved, "main", want, append([]ports.GitFile{file("a.txt", want)}, files...)...)
		if got := treesContent(t, s, moved, "a.txt"); got != want {
			t.Fatalf("round %d: a.txt %q", i, got)
		}
		runGit(t, bare, "repack", "-adq")
		runGit(t, bare, "prune-packed")
		for j := 0; j <= i; j++ {
			if got := treesContent(t, s, moved, fmt.Sprintf("f%d.txt", j)); got != fmt.Sprintf("round %d", j) {
				t.Fatalf("round %d: f%d.txt %q", i, j, got)
			}
		}
		_, rd, err := s.OpenBlob(ctx, moved, ports.GitPathQuery{Ref: "main", Path: "big.bin"})
		if err != nil {
			t.Fatalf("round %d: open big.bin: %v", i, err)
		}
		data, err := io.ReadAll(rd)
		_ = rd.Close()
		if err != nil || !bytes.Equal(data, big) {
			t.Fatalf("round %d: big.bin: %v, %d bytes", i, err, len(data))
		}
		page, err := s.Tree(ctx, moved, ports.GitTreeQuery{Rev: "main", Limit: 100})
		if err != nil || page.Total != i+4 {
			t.Fatalf("round %d: tree %v, %d entries", i, err, page.Total)
		}
	}
}

// TestTreesConcurrentReads reads from many goroutines while commits land:
// every read sees one of the committed versions, and none fails.
func TestTreesConcurrentReads(t *testing.T) {
	ctx := context.Background()
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "busy"}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	commit(t, s, p, "main", "v0", file("a.txt", "v0"))
	const rounds = 20
	errc := make(chan error, 8)
	stop := make(chan struct{})
	for range 8 {
		go func() {
			for {
				select {
				case <-stop:
					errc <- nil
					return
				default:
				}
				res, err := s.ReadPath(ctx, p, ports.GitPathQuery{Ref: "main", Path: "a.txt", Content: true, MaxContent: 100, LastCommit: true})
				if err != nil {
					errc <- err
					return
				}
				if c := string(res.Entry.Content); !strings.HasPrefix(c, "v") || res.Entry.LastCommit == nil ||
					res.Entry.LastCommit.Message != c+"\n" {
					errc <- fmt.Errorf("read %q, last commit %v", c, res.Entry.LastCommit)
					return
				}
			}
		}()
	}
	for i := 1; i <= rounds; i++ {
		v := fmt.Sprintf("v%d", i)
		commit(t, s, p, "main", v, file("a.txt", v))
	}
	close(stop)
	for range 8 {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
	if got := treesContent(t, s, p, "a.txt"); got != fmt.Sprintf("v%d", rounds) {
		t.Errorf("last read %q", got)
	}
}
