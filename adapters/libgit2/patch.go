package libgit2

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// ApplyPatch applies a unified diff to a branch's tree and commits the
// result (ports.GitChanges). The diff is parsed and applied by libgit2 in
// memory: no working tree, no git process.
func (s *Storage) ApplyPatch(ctx context.Context, p ports.RepoPath, ps ports.GitPatchSet) (ports.GitChangeResult, error) {
	return s.applyPatch(ctx, p, ps, nil)
}

// applyPatch implements ApplyPatch; race is as for changeFiles.
func (s *Storage) applyPatch(ctx context.Context, p ports.RepoPath, ps ports.GitPatchSet, race func(attempt int)) (ports.GitChangeResult, error) {
	if len(bytes.TrimSpace(ps.Patch)) == 0 {
		return ports.GitChangeResult{}, errs.Invalid("Required", "Content")
	}
	var out ports.GitChangeResult
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		diff, err := git.DiffFromBuffer(ps.Patch, repo)
		if err != nil {
			return errs.Invalid("the patch cannot be parsed: "+changeGitMessage(err), "Content")
		}
		defer func() { _ = diff.Free() }()
		if err := changeCheckPatchPaths(diff, ps.MaxFiles); err != nil {
			return err
		}
		build := func(base *git.Tree) (*git.Oid, error) {
			idx, err := repo.ApplyToTree(diff, base, nil)
			if err != nil {
				return nil, errs.Conflict("patch does not apply: " + changeGitMessage(err))
			}
			defer idx.Free()
			id, err := idx.WriteTreeTo(repo)
			if err != nil {
				return nil, errs.Conflict("patch does not apply: " + changeGitMessage(err))
			}
			return id, nil
		}
		// Gitea applies a patch only to an existing branch.
		id, wasEmpty, err := changeCommit(ctx, s.commits(), repo, ps.GitChangeTarget, false, build, race)
		if err != nil {
			return err
		}
		out, err = changeResult(repo, ps.Target(), id, wasEmpty)
		return err
	})
	return out, err
}

// changeCheckPatchPaths refuses a diff that changes nothing or that writes a path
// the contents API may not write (a .git component, "..", an absolute path),
// and one past the bounds of a contents write: more than maxFiles files (0:
// no bound) or more than repository.MaxChangeDirectories directories.
func changeCheckPatchPaths(diff *git.Diff, maxFiles int) error {
	n, err := diff.NumDeltas()
	if err != nil {
		return fmt.Errorf("libgit2: read patch: %w", err)
	}
	if n == 0 {
		return errs.Invalid("the patch changes no file", "Content")
	}
	if err := repository.CheckFileCount("Content", n, maxFiles); err != nil {
		return err
	}
	cleaned := make([]string, 0, n)
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return fmt.Errorf("libgit2: read patch: %w", err)
		}
		paths := []string{d.OldFile.Path, d.NewFile.Path}
		if d.Status == git.DeltaDeleted {
			paths = paths[:1]
		}
		for _, p := range paths {
			c, err := repository.CleanTreePath("Content", p)
			if err != nil {
				return errs.Invalid("the patch touches a path that may not be written [path: "+p+"]", "Content")
			}
			cleaned = append(cleaned, c)
		}
	}
	return repository.CheckChangeDirectories("Content", cleaned)
}

// changeGitMessage is libgit2's own text for err, without Go's wrapping.
func changeGitMessage(err error) string {
	var g *git.GitError
	if errors.As(err, &g) && g.Message != "" {
		return g.Message
	}
	return err.Error()
}
