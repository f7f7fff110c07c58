package libgit2_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// refs lists a repository's refs with their targets, one per line.
func refs(t *testing.T, dir string) string {
	t.Helper()
	return runGit(t, filepath.Dir(dir), "--git-dir", dir, "for-each-ref", "--format=%(refname) %(objectname)")
}

func TestFork(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	src := ports.RepoPath{Owner: "alice", Name: "hello"}
	is.NoErr(s.Init(ctx, src, "main"))
	commit(t, s, src, "main", "one", file("README.md", "one\n"))
	tip := commit(t, s, src, "main", "two", file("README.md", "two\n"), file("src/x.go", "package x\n"))
	commit(t, s, src, "feature/x", "feature", file("f", "f\n"))
	srcDir := repoDir(root, src)
	runGit(t, root, "--git-dir", srcDir, "tag", "v1", "main~1")
	runGit(t, root, "--git-dir", srcDir, "tag", "-a", "-m", "release", "v2", "main")
	is.NoErr(s.SetHead(ctx, src, "feature/x"))

	dst := ports.RepoPath{Owner: "Bob", Name: "Hello-Fork"}
	is.NoErr(s.Fork(ctx, src, dst))
	dstDir := repoDir(root, dst)

	is.Equal(refs(t, dstDir), refs(t, srcDir)) // same branches and tags, nothing else
	is.True(strings.Contains(refs(t, dstDir), "refs/tags/v2 "))
	is.Equal(runGit(t, root, "--git-dir", dstDir, "symbolic-ref", "HEAD"), "refs/heads/feature/x")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "rev-parse", "--is-bare-repository"), "true")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "log", "--format=%H", "-1", "main"), tip)
	is.Equal(runGit(t, root, "--git-dir", dstDir, "cat-file", "-t", "v2"), "tag")
	runGit(t, root, "--git-dir", dstDir, "fsck", "--strict", "--no-dangling")

	// The fork does not remember where it came from.
	is.Equal(runGit(t, root, "--git-dir", dstDir, "remote"), "")
	out, err := gitOutput(t, root, "--git-dir", dstDir, "config", "--get-regexp", `^(remote|branch)\.`)
	is.True(err != nil) // git config exits 1 when nothing matches
	is.Equal(out, "")
	_, err = os.Stat(filepath.Join(dstDir, "FETCH_HEAD"))
	is.True(errors.Is(err, os.ErrNotExist))

	// Objects are shared by hard links: every loose object of the fork is
	// the same file as the source's.
	linked := 0
	err = filepath.WalkDir(filepath.Join(dstDir, "objects"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || len(filepath.Base(filepath.Dir(path))) != 2 {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Sys().(*syscall.Stat_t).Nlink > 1 {
			linked++
		}
		rel, _ := filepath.Rel(dstDir, path)
		_, err = os.Stat(filepath.Join(srcDir, rel))
		return err
	})
	is.NoErr(err)
	is.True(linked > 0)

	// Forks are independent: a commit on the fork leaves the source alone.
	commit(t, s, dst, "main", "fork only", file("README.md", "fork\n"))
	is.Equal(runGit(t, root, "--git-dir", srcDir, "rev-parse", "main"), tip)

	err = s.Fork(ctx, src, dst)
	is.True(errors.Is(err, errs.ErrConflict))

	missing := ports.RepoPath{Owner: "alice", Name: "missing"}
	target := ports.RepoPath{Owner: "carol", Name: "x"}
	err = s.Fork(ctx, missing, target)
	is.True(errors.Is(err, errs.ErrNotFound))
	ok, err := s.Exists(ctx, target)
	is.NoErr(err)
	is.True(!ok)
	_, err = os.Stat(repoDir(root, target))
	is.True(errors.Is(err, os.ErrNotExist))
}

func TestForkEmpty(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	src := ports.RepoPath{Owner: "alice", Name: "empty"}
	is.NoErr(s.Init(ctx, src, "trunk"))
	dst := ports.RepoPath{Owner: "bob", Name: "empty"}
	is.NoErr(s.Fork(ctx, src, dst))
	empty, err := s.IsEmpty(ctx, dst)
	is.NoErr(err)
	is.True(empty)
	is.Equal(runGit(t, root, "--git-dir", repoDir(root, dst), "symbolic-ref", "HEAD"), "refs/heads/trunk")
	is.Equal(runGit(t, root, "--git-dir", repoDir(root, dst), "remote"), "")
}

func TestGenerate(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	tmpl := ports.RepoPath{Owner: "alice", Name: "template"}
	is.NoErr(s.Init(ctx, tmpl, "main"))
	commit(t, s, tmpl, "main", "one", file("README.md", "one\n"))
	commit(t, s, tmpl, "main", "two",
		file("README.md", "# template\n"),
		file("docs/a/b.md", "deep\n"),
		ports.GitFile{Path: "run.sh", Content: []byte("#!/bin/sh\n"), Executable: true})
	commit(t, s, tmpl, "other", "other", file("other", "other\n"))
	tmplDir := repoDir(root, tmpl)

	dst := ports.RepoPath{Owner: "bob", Name: "generated"}
	is.NoErr(s.Generate(ctx, tmpl, "main", dst, ports.GitCommit{
		Branch: "trunk", Message: "Initial commit", Author: alice,
	}))
	dstDir := repoDir(root, dst)

	is.Equal(runGit(t, root, "--git-dir", dstDir, "symbolic-ref", "HEAD"), "refs/heads/trunk")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "for-each-ref", "--format=%(refname)"), "refs/heads/trunk")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "rev-list", "--count", "trunk"), "1")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "log", "--format=%P|%an|%s", "trunk"), "|Alice Example|Initial commit")
	is.Equal(runGit(t, root, "--git-dir", dstDir, "rev-parse", "trunk^{tree}"),
		runGit(t, root, "--git-dir", tmplDir, "rev-parse", "main^{tree}"))
	// Every object is in the new repository itself (no alternates), and the
	// other branch's content was not copied.
	runGit(t, root, "--git-dir", dstDir, "fsck", "--strict", "--no-dangling")
	_, err := os.Stat(filepath.Join(dstDir, "objects", "info", "alternates"))
	is.True(errors.Is(err, os.ErrNotExist))
	otherBlob := runGit(t, root, "--git-dir", tmplDir, "rev-parse", "other:other")
	_, err = gitOutput(t, root, "--git-dir", dstDir, "cat-file", "-e", otherBlob)
	is.True(err != nil)

	work := filepath.Join(t.TempDir(), "work")
	runGit(t, root, "clone", "--quiet", dstDir, work)
	got, err := os.ReadFile(filepath.Join(work, "docs", "a", "b.md"))
	is.NoErr(err)
	is.Equal(string(got), "deep\n")
	fi, err := os.Stat(filepath.Join(work, "run.sh"))
	is.NoErr(err)
	is.True(fi.Mode().Perm()&0o100 != 0)

	// A template without the branch gives an empty repository.
	empty := ports.RepoPath{Owner: "bob", Name: "empty"}
	is.NoErr(s.Generate(ctx, tmpl, "nope", empty, ports.GitCommit{Branch: "main", Message: "m", Author: alice}))
	isEmpty, err := s.IsEmpty(ctx, empty)
	is.NoErr(err)
	is.True(isEmpty)
	is.Equal(runGit(t, root, "--git-dir", repoDir(root, empty), "symbolic-ref", "HEAD"), "refs/heads/main")

	err = s.Generate(ctx, tmpl, "main", dst, ports.GitCommit{Branch: "main", Message: "m", Author: alice})
	is.True(errors.Is(err, errs.ErrConflict))

	target := ports.RepoPath{Owner: "bob", Name: "x"}
	err = s.Generate(ctx, ports.RepoPath{Owner: "alice", Name: "missing"}, "main", target,
		ports.GitCommit{Branch: "main", Message: "m", Author: alice})
	is.True(errors.Is(err, errs.ErrNotFound))
	ok, err := s.Exists(ctx, target)
	is.NoErr(err)
	is.True(!ok)
}
