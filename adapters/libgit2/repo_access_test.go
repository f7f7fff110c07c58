package libgit2_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// TestRepoAccessOpensOncePerCall measures how many times each call opens
// its repository: once for every call that opens its own, none for a read
// that finds a warm handle in the pool. A ref Git would refuse and a ref
// naming nothing are answered after the one open, a missing repository
// without any.
func TestRepoAccessOpensOncePerCall(t *testing.T) {
	s, root := newStorage(t)
	ctx := context.Background()
	p := ports.RepoPath{Owner: "alice", Name: "opens"}
	if err := s.Init(ctx, p, "main"); err != nil {
		t.Fatal(err)
	}
	dir := repoDir(root, p)
	first := commit(t, s, p, "main", "first", file("README.md", "# opens\n"), file("LICENSE", "MIT License\n"),
		file(".editorconfig", "root = true\n[*]\nindent_style = tab\n"))
	second := commit(t, s, p, "main", "second", file("README.md", "# opens\n\nmore\n"), file("LICENSE", "MIT License\n"),
		file(".editorconfig", "root = true\n[*]\nindent_style = tab\n"))
	readme := runGit(t, root, "--git-dir", dir, "rev-parse", "main:README.md")
	var annotated string

	for _, c := range []struct {
		name string
		want int
		call func() error
	}{
		{"Resolve", 1, func() error { _, err := s.Resolve(ctx, p, "main"); return err }},
		{"ResolvePrefix", 1, func() error { _, _, err := s.ResolvePrefix(ctx, p, "main/README.md"); return err }},
		{"Commit", 1, func() error { _, err := s.Commit(ctx, p, second); return err }},
		{"CommitFiles", 1, func() error {
			_, err := s.CommitFiles(ctx, p, ports.GitCommit{Branch: "side", Message: "side", Author: alice,
				Files: []ports.GitFile{file("side.txt", "side\n")}})
			return err
		}},
		{"ChangeFiles", 1, func() error {
			_, err := s.ChangeFiles(ctx, p, changeSet("main", "", repository.FileChange{
				Operation: repository.FileCreate, Path: "new.txt", Content: []byte("new\n")}))
			return err
		}},
		{"ApplyPatch", 1, func() error {
			_, err := s.ApplyPatch(ctx, p, ports.GitPatchSet{GitChangeTarget: changeSet("main", "").GitChangeTarget,
				Patch: []byte(changePatchAddHello)})
			return err
		}},
		{"ListBranches", 1, func() error { _, _, err := s.ListBranches(ctx, p, ports.ListOptions{Page: 1, Limit: 10}); return err }},
		{"Branch", 1, func() error { _, err := s.Branch(ctx, p, "main"); return err }},
		{"CreateBranch", 1, func() error { _, err := s.CreateBranch(ctx, p, "topic", first); return err }},
		{"RenameBranch", 1, func() error { return s.RenameBranch(ctx, p, "topic", "feature") }},
		{"DeleteBranch", 1, func() error { _, err := s.DeleteBranch(ctx, p, "feature"); return err }},
		{"SetHead", 1, func() error { return s.SetHead(ctx, p, "main") }},
		{"HasBranch", 1, func() error { _, err := s.HasBranch(ctx, p, "main"); return err }},
		{"IsEmpty", 1, func() error { _, err := s.IsEmpty(ctx, p); return err }},
		{"CreateTag", 1, func() error {
			tag, err := s.CreateTag(ctx, p, ports.GitNewTag{Name: "v1", CommitID: first, Message: "one", Tagger: alice})
			annotated = tag.ID
			return err
		}},
		{"ListTags", 1, func() error { _, _, err := s.ListTags(ctx, p, ports.ListOptions{Page: 1, Limit: 10}); return err }},
		{"Tag", 1, func() error { _, err := s.Tag(ctx, p, "v1"); return err }},
		{"AnnotatedTag", 1, func() error { _, err := s.AnnotatedTag(ctx, p, annotated); return err }},
		{"DeleteTag", 1, func() error { _, err := s.DeleteTag(ctx, p, "v1"); return err }},
		{"ListRefs", 1, func() error { _, err := s.ListRefs(ctx, p, "refs/"); return err }},
		{"ListCommits", 1, func() error {
			_, _, err := s.ListCommits(ctx, p, ports.CommitListQuery{Ref: "main"}, ports.ListOptions{Page: 1, Limit: 10})
			return err
		}},
		{"CommitDetail", 1, func() error { _, err := s.CommitDetail(ctx, p, "main", ports.CommitExtras{Files: true}); return err }},
		{"CompareCommits", 1, func() error {
			_, err := s.CompareCommits(ctx, p, first, "main", false, ports.CommitExtras{})
			return err
		}},
		{"WriteCommitDiff", 1, func() error { return s.WriteCommitDiff(ctx, p, "main", ports.CommitDiffUnified, io.Discard) }},
		{"WarmCommitCounts", 1, func() error { return s.WarmCommitCounts(ctx, p, []string{second}) }},
		{"EditorConfig", 1, func() error { _, err := s.EditorConfig(ctx, p, "main", "a.go"); return err }},
		{"Languages", 1, func() error { _, err := s.Languages(ctx, p, "main"); return err }},
		{"Languages cached", 1, func() error { _, err := s.Languages(ctx, p, "main"); return err }},
		{"Licenses", 1, func() error { _, err := s.Licenses(ctx, p, "main"); return err }},
		{"OpenArchive and Stream", 1, func() error {
			a, err := s.OpenArchive(ctx, p, "main", ports.ArchiveTarGz, "opens/")
			if err != nil {
				return err
			}
			defer a.Close()
			return a.Stream(ctx, io.Discard)
		}},
		{"Note of a commit without one", 1, func() error { return notFound(s.Note(ctx, p, second)) }},
		{"Resolve of a ref naming nothing", 1, func() error { return notFound(s.Resolve(ctx, p, "nothing")) }},
		{"CommitDetail of a ref Git refuses", 1, func() error {
			return notFound(s.CommitDetail(ctx, p, "bad..name", ports.CommitExtras{}))
		}},
		{"CommitDetail of an overlong ref", 1, func() error {
			return notFound(s.CommitDetail(ctx, p, strings.Repeat("a/", 300)+"b", ports.CommitExtras{}))
		}},
		{"ReadPath cold", 1, func() error {
			_, err := s.ReadPath(ctx, p, ports.GitPathQuery{Ref: "main", Path: "README.md"})
			return err
		}},
		{"ReadPath warm", 0, func() error {
			_, err := s.ReadPath(ctx, p, ports.GitPathQuery{Ref: "main", Path: "README.md"})
			return err
		}},
		{"Tree warm", 0, func() error { _, err := s.Tree(ctx, p, ports.GitTreeQuery{Rev: "main", Limit: 10}); return err }},
		{"Blob warm", 0, func() error { _, err := s.Blob(ctx, p, readme, 1<<20); return err }},
		{"OpenBlob warm", 0, func() error {
			_, r, err := s.OpenBlob(ctx, p, ports.GitPathQuery{Ref: "main", Path: "README.md"})
			if err != nil {
				return err
			}
			return r.Close()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			before := libgit2.RepoOpens(dir)
			is.NoErr(c.call())
			is.Equal(libgit2.RepoOpens(dir)-before, c.want) // repository opens
		})
	}

	t.Run("missing repository", func(t *testing.T) {
		is := is.New(t)
		gone := ports.RepoPath{Owner: "alice", Name: "gone"}
		_, err := s.CommitDetail(ctx, gone, "main", ports.CommitExtras{})
		is.True(errors.Is(err, errs.ErrNotFound))
		is.Equal(libgit2.RepoOpens(repoDir(root, gone)), 0) // repository opens
	})
}

// notFound turns an answer that is not found into success, so that the
// opens of calls that must fail are measured too.
func notFound[T any](_ T, err error) error {
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err == nil {
		return errors.New("found, want not found")
	}
	return err
}
