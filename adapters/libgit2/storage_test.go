package libgit2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func TestNewCreatesPrivateRoot(t *testing.T) {
	is := is.New(t)
	_, root := newStorage(t)
	fi, err := os.Stat(root)
	is.NoErr(err)
	is.True(fi.IsDir())
	is.Equal(fi.Mode().Perm(), os.FileMode(0o700))
}

func TestInit(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "Alice", Name: "Hello"}

	is.NoErr(s.Init(ctx, p, "main"))
	dir := filepath.Join(root, "alice", "hello.git")
	is.Equal(runGit(t, root, "--git-dir", dir, "symbolic-ref", "HEAD"), "refs/heads/main")
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-parse", "--is-bare-repository"), "true")
	is.Equal(runGit(t, root, "--git-dir", dir, "config", "core.bare"), "true")

	ok, err := s.Exists(ctx, p)
	is.NoErr(err)
	is.True(ok)
	empty, err := s.IsEmpty(ctx, p)
	is.NoErr(err)
	is.True(empty)
	has, err := s.HasBranch(ctx, p, "main")
	is.NoErr(err)
	is.True(!has)

	// The name is case-insensitive on disk.
	err = s.Init(ctx, ports.RepoPath{Owner: "alice", Name: "HELLO"}, "main")
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(errs.Message(err), "repository files already exist")

	err = s.Init(ctx, ports.RepoPath{Owner: "alice", Name: "bad"}, "no..dots")
	is.True(hasField(t, err, "branch"))
	ok, err = s.Exists(ctx, ports.RepoPath{Owner: "alice", Name: "bad"})
	is.NoErr(err)
	is.True(!ok) // nothing is left behind by a refused Init
}

func TestExistsFalseForPlainDirectory(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "junk"}
	is.NoErr(os.MkdirAll(repoDir(root, p), 0o700))
	ok, err := s.Exists(ctx, p)
	is.NoErr(err)
	is.True(!ok)
	ok, err = s.Exists(ctx, ports.RepoPath{Owner: "nobody", Name: "nothing"})
	is.NoErr(err)
	is.True(!ok)
}

func TestCommitFiles(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, p, "main"))

	first, err := s.CommitFiles(ctx, p, ports.GitCommit{
		Branch:  "main",
		Message: "Initial commit",
		Author:  alice,
		Files: []ports.GitFile{
			file("README.md", "# hello\n"),
			file("LICENSE", "MIT\n"),
			file(".gitignore", "*.o\n"),
			file("docs/guide/intro.md", "intro\n"),
			{Path: "bin/run.sh", Content: []byte("#!/bin/sh\necho hi\n"), Executable: true},
		},
	})
	is.NoErr(err)
	is.Equal(len(first), 40)

	dir := repoDir(root, p)
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-parse", "main"), first)
	runGit(t, root, "--git-dir", dir, "fsck", "--strict", "--no-dangling")
	is.Equal(runGit(t, root, "--git-dir", dir, "log", "--format=%an%n%ae%n%cn%n%ct%n%s%n%P", "main"),
		"Alice Example\nalice@example.com\nAlice Example\n1714564800\nInitial commit") // no parent
	is.Equal(runGit(t, root, "--git-dir", dir, "ls-tree", "-r", "--format=%(objectmode) %(path)", "main"), strings.Join([]string{
		"100644 .gitignore",
		"100644 LICENSE",
		"100644 README.md",
		"100755 bin/run.sh",
		"100644 docs/guide/intro.md",
	}, "\n"))

	work := filepath.Join(t.TempDir(), "work")
	runGit(t, root, "clone", "--quiet", dir, work)
	is.Equal(runGit(t, work, "log", "--format=%an%n%s"), "Alice Example\nInitial commit")
	for path, want := range map[string]string{
		"README.md":           "# hello\n",
		"LICENSE":             "MIT\n",
		".gitignore":          "*.o\n",
		"docs/guide/intro.md": "intro\n",
		"bin/run.sh":          "#!/bin/sh\necho hi\n",
	} {
		got, err := os.ReadFile(filepath.Join(work, filepath.FromSlash(path)))
		is.NoErr(err)
		is.Equal(string(got), want)
	}
	fi, err := os.Stat(filepath.Join(work, "bin", "run.sh"))
	is.NoErr(err)
	is.True(fi.Mode().Perm()&0o100 != 0) // run.sh is executable
	fi, err = os.Stat(filepath.Join(work, "README.md"))
	is.NoErr(err)
	is.True(fi.Mode().Perm()&0o111 == 0) // README.md is not

	// A second commit has the first as parent and replaces the tree.
	second, err := s.CommitFiles(ctx, p, ports.GitCommit{
		Branch:    "main",
		Message:   "Second\n",
		Author:    alice,
		Committer: ports.GitSignature{Name: "Bot", Email: "bot@example.com"},
		Files:     []ports.GitFile{file("README.md", "# hello again\n")},
	})
	is.NoErr(err)
	is.True(second != first)
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-parse", "main^"), first)
	is.Equal(runGit(t, root, "--git-dir", dir, "log", "-1", "--format=%cn <%ce>%n%s", "main"), "Bot <bot@example.com>\nSecond")
	is.Equal(runGit(t, root, "--git-dir", dir, "ls-tree", "--name-only", "main"), "README.md")

	has, err := s.HasBranch(ctx, p, "main")
	is.NoErr(err)
	is.True(has)
	empty, err := s.IsEmpty(ctx, p)
	is.NoErr(err)
	is.True(!empty)
}

func TestCommitFilesNewBranchIsParentless(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, p, "main"))
	commit(t, s, p, "main", "one", file("a", "a"))
	id := commit(t, s, p, "feature/x", "two", file("b", "b"))
	dir := repoDir(root, p)
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-list", "--parents", "feature/x"), id)

	// IsEmpty sees nested branch names.
	q := ports.RepoPath{Owner: "alice", Name: "nested"}
	is.NoErr(s.Init(ctx, q, "main"))
	commit(t, s, q, "feature/only", "one", file("a", "a"))
	empty, err := s.IsEmpty(ctx, q)
	is.NoErr(err)
	is.True(!empty)
}

func TestCommitFilesRefusesBadPaths(t *testing.T) {
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files []ports.GitFile
	}{
		{"parent", []ports.GitFile{file("../escape", "x")}},
		{"nested parent", []ports.GitFile{file("a/../../escape", "x")}},
		{"absolute", []ports.GitFile{file("/etc/passwd", "x")}},
		{"empty", []ports.GitFile{file("", "x")}},
		{"empty segment", []ports.GitFile{file("a//b", "x")}},
		{"trailing slash", []ports.GitFile{file("a/", "x")}},
		{"dot", []ports.GitFile{file("./a", "x")}},
		{"git dir", []ports.GitFile{file(".git/config", "x")}},
		{"git dir any case", []ports.GitFile{file("sub/.GIT/hooks/pre-receive", "x")}},
		{"backslash", []ports.GitFile{file(`a\..\b`, "x")}},
		{"nul", []ports.GitFile{file("a\x00b", "x")}},
		{"duplicate", []ports.GitFile{file("README.md", "1"), file("README.md", "2")}},
		{"file then dir", []ports.GitFile{file("a", "1"), file("a/b", "2")}},
		{"dir then file", []ports.GitFile{file("a/b", "1"), file("a", "2")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			_, err := s.CommitFiles(ctx, p, ports.GitCommit{Branch: "main", Message: "m", Author: alice, Files: tc.files})
			is.True(hasField(t, err, "files"))
		})
	}
	is := is.New(t)
	empty, err := s.IsEmpty(ctx, p)
	is.NoErr(err)
	is.True(empty) // no refused commit was written
	_, err = os.Stat(filepath.Join(filepath.Dir(root), "escape"))
	is.True(errors.Is(err, os.ErrNotExist))
}

func TestCommitFilesErrors(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	c := ports.GitCommit{Branch: "main", Message: "m", Author: alice, Files: []ports.GitFile{file("a", "a")}}

	_, err := s.CommitFiles(ctx, p, c)
	is.True(errors.Is(err, errs.ErrNotFound)) // no repository yet

	is.NoErr(s.Init(ctx, p, "main"))
	bad := c
	bad.Branch = "a..b"
	_, err = s.CommitFiles(ctx, p, bad)
	is.True(hasField(t, err, "branch"))
	bad = c
	bad.Author = ports.GitSignature{}
	_, err = s.CommitFiles(ctx, p, bad)
	is.True(hasField(t, err, "author"))
}

func TestSetHead(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, p, "main"))
	commit(t, s, p, "main", "one", file("a", "a"))
	commit(t, s, p, "dev", "two", file("b", "b"))

	is.NoErr(s.SetHead(ctx, p, "dev"))
	is.Equal(runGit(t, root, "--git-dir", repoDir(root, p), "symbolic-ref", "HEAD"), "refs/heads/dev")
	is.True(hasField(t, s.SetHead(ctx, p, "bad name"), "branch"))
	is.True(errors.Is(s.SetHead(ctx, ports.RepoPath{Owner: "alice", Name: "none"}, "main"), errs.ErrNotFound))
}

func TestDelete(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, p, "main"))
	commit(t, s, p, "main", "one", file("a", "a"))

	is.NoErr(s.Delete(ctx, p))
	_, err := os.Stat(repoDir(root, p))
	is.True(errors.Is(err, os.ErrNotExist))
	is.Equal(listDir(t, filepath.Join(root, ".trash")), nil) // nothing left aside
	ok, err := s.Exists(ctx, p)
	is.NoErr(err)
	is.True(!ok)

	is.NoErr(s.Delete(ctx, p))                                             // again
	is.NoErr(s.Delete(ctx, ports.RepoPath{Owner: "nobody", Name: "none"})) // never there

	// The name is free again.
	is.NoErr(s.Init(ctx, p, "main"))
}

func TestMove(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	from := ports.RepoPath{Owner: "alice", Name: "hello"}
	to := ports.RepoPath{Owner: "Org", Name: "World"}
	is.NoErr(s.Init(ctx, from, "main"))
	id := commit(t, s, from, "main", "one", file("a", "a"))

	is.NoErr(s.Move(ctx, from, to))
	ok, err := s.Exists(ctx, from)
	is.NoErr(err)
	is.True(!ok)
	is.Equal(runGit(t, root, "--git-dir", filepath.Join(root, "org", "world.git"), "log", "--format=%H"), id)

	// A rename that only changes case is the same directory.
	is.NoErr(s.Move(ctx, to, ports.RepoPath{Owner: "org", Name: "world"}))

	err = s.Move(ctx, from, ports.RepoPath{Owner: "alice", Name: "other"})
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(errs.Message(err), "repository files do not exist")

	other := ports.RepoPath{Owner: "alice", Name: "taken"}
	is.NoErr(s.Init(ctx, other, "main"))
	err = s.Move(ctx, to, other)
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(runGit(t, root, "--git-dir", repoDir(root, to), "log", "--format=%H"), id) // untouched
}

func TestSweep(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	is.NoErr(s.Sweep(ctx)) // no trash yet

	left := filepath.Join(root, ".trash", "alice~hello.git~0123", "objects", "ab")
	is.NoErr(os.MkdirAll(left, 0o700))
	is.NoErr(os.WriteFile(filepath.Join(left, "cdef"), []byte("x"), 0o400))
	is.NoErr(os.WriteFile(filepath.Join(root, ".trash", "stray"), []byte("x"), 0o600))
	p := ports.RepoPath{Owner: "alice", Name: "kept"}
	is.NoErr(s.Init(ctx, p, "main"))

	is.NoErr(s.Sweep(ctx))
	is.Equal(listDir(t, filepath.Join(root, ".trash")), nil)
	ok, err := s.Exists(ctx, p)
	is.NoErr(err)
	is.True(ok) // repositories are not swept
}

func TestSize(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, p, "main"))
	before, err := s.Size(ctx, p)
	is.NoErr(err)
	is.True(before > 0)
	commit(t, s, p, "main", "one", file("big", strings.Repeat("incompressible? no, but still bytes ", 1000)))
	after, err := s.Size(ctx, p)
	is.NoErr(err)
	is.True(after > before)

	_, err = s.Size(ctx, ports.RepoPath{Owner: "alice", Name: "none"})
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestNamesEscapingRootAreRefused(t *testing.T) {
	ctx := context.Background()
	s, root := newStorage(t)
	good := ports.RepoPath{Owner: "alice", Name: "good"}
	if err := s.Init(ctx, good, "main"); err != nil {
		t.Fatal(err)
	}
	c := ports.GitCommit{Branch: "main", Message: "m", Author: alice}
	for _, p := range []ports.RepoPath{
		{Owner: "", Name: "x"},
		{Owner: "alice", Name: ""},
		{Owner: "..", Name: "x"},
		{Owner: ".", Name: "x"},
		{Owner: "alice", Name: ".."},
		{Owner: "alice", Name: "../../etc"},
		{Owner: "../alice", Name: "x"},
		{Owner: "a/b", Name: "x"},
		{Owner: "alice", Name: "a/b"},
		{Owner: `a\b`, Name: "x"},
		{Owner: "alice", Name: "x\x00y"},
		{Owner: ".trash", Name: "x"},
		{Owner: "alice", Name: ".hidden"},
	} {
		t.Run(p.Owner+"|"+p.Name, func(t *testing.T) {
			is := is.New(t)
			invalid := func(err error) {
				t.Helper()
				is.True(len(invalidFields(t, err)) > 0)
			}
			invalid(s.Init(ctx, p, "main"))
			_, err := s.CommitFiles(ctx, p, c)
			invalid(err)
			invalid(s.Delete(ctx, p))
			invalid(s.Move(ctx, good, p))
			invalid(s.Move(ctx, p, good))
			invalid(s.Fork(ctx, good, p))
			invalid(s.Fork(ctx, p, good))
			invalid(s.Generate(ctx, good, "main", p, c))
			invalid(s.SetHead(ctx, p, "main"))
			_, err = s.HasBranch(ctx, p, "main")
			invalid(err)
			_, err = s.IsEmpty(ctx, p)
			invalid(err)
			_, err = s.Size(ctx, p)
			invalid(err)
			_, err = s.Exists(ctx, p)
			invalid(err)
		})
	}
	is := is.New(t)
	is.Equal(listDir(t, filepath.Dir(root)), []string{"repos"}) // nothing written beside the root
	is.Equal(listDir(t, root), []string{"alice"})
	is.Equal(listDir(t, filepath.Join(root, "alice")), []string{"good.git"})
}

func TestCancelledContext(t *testing.T) {
	is := is.New(t)
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "hello"}
	q := ports.RepoPath{Owner: "alice", Name: "other"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := ports.GitCommit{Branch: "main", Message: "m", Author: alice}
	cancelled := func(err error) {
		t.Helper()
		is.True(errors.Is(err, context.Canceled))
	}
	cancelled(s.Init(ctx, p, "main"))
	_, err := s.CommitFiles(ctx, p, c)
	cancelled(err)
	cancelled(s.Delete(ctx, p))
	cancelled(s.Move(ctx, p, q))
	cancelled(s.Fork(ctx, p, q))
	cancelled(s.Generate(ctx, p, "main", q, c))
	cancelled(s.SetHead(ctx, p, "main"))
	_, err = s.HasBranch(ctx, p, "main")
	cancelled(err)
	_, err = s.IsEmpty(ctx, p)
	cancelled(err)
	_, err = s.Size(ctx, p)
	cancelled(err)
	_, err = s.Exists(ctx, p)
	cancelled(err)
	cancelled(s.Sweep(ctx))
}

func TestConcurrentUse(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, _ := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "race"}

	// Exactly one of many concurrent Inits of one name wins.
	const n = 8
	results := make(chan error, n)
	for range n {
		go func() { results <- s.Init(ctx, p, "main") }()
	}
	wins := 0
	for range n {
		err := <-results
		if err == nil {
			wins++
			continue
		}
		is.True(errors.Is(err, errs.ErrConflict))
	}
	is.Equal(wins, 1)

	// Calls on different repositories may run at once.
	done := make(chan error, n)
	for i := range n {
		go func() {
			q := ports.RepoPath{Owner: "alice", Name: "repo" + string(rune('a'+i))}
			if err := s.Init(ctx, q, "main"); err != nil {
				done <- err
				return
			}
			_, err := s.CommitFiles(ctx, q, ports.GitCommit{
				Branch: "main", Message: "m", Author: alice, Files: []ports.GitFile{file("a", "a")},
			})
			if err == nil {
				err = s.Fork(ctx, q, ports.RepoPath{Owner: "bob", Name: q.Name})
			}
			done <- err
		}()
	}
	for range n {
		is.NoErr(<-done)
	}
}
