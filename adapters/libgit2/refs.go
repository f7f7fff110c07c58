package libgit2

import (
	"context"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// SetHead points HEAD at branch, which need not exist yet.
func (s *Storage) SetHead(ctx context.Context, p ports.RepoPath, branch string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ref, err := branchRef(branch)
	if err != nil {
		return err
	}
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		if err := repo.SetHead(ref); err != nil {
			return fmt.Errorf("libgit2: set HEAD: %w", err)
		}
		return nil
	})
}

// HasBranch reports whether the branch exists.
func (s *Storage) HasBranch(ctx context.Context, p ports.RepoPath, branch string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	ref, err := branchRef(branch)
	if err != nil {
		return false, err
	}
	var ok bool
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		ok, err = hasRef(repo, ref)
		return err
	})
	return ok, err
}

// hasRef reports whether the reference name exists in repo.
func hasRef(repo *git.Repository, name string) (bool, error) {
	if !refNameValid(name) {
		return false, nil
	}
	ref, err := repo.References.Lookup(name)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return false, nil
		}
		return false, fmt.Errorf("libgit2: look up %s: %w", name, err)
	}
	ref.Free()
	return true, nil
}

// IsEmpty reports whether the repository has no branch.
func (s *Storage) IsEmpty(ctx context.Context, p ports.RepoPath) (bool, error) {
	empty := false
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		it, err := repo.NewReferenceIteratorGlob("refs/heads/*")
		if err != nil {
			return fmt.Errorf("libgit2: list branches: %w", err)
		}
		defer it.Free()
		names := it.Names()
		if _, err := names.Next(); err != nil {
			if git.IsErrorCode(err, git.ErrorCodeIterOver) {
				empty = true
				return nil
			}
			return fmt.Errorf("libgit2: list branches: %w", err)
		}
		return nil
	})
	return empty, err
}
