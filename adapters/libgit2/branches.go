package libgit2

import (
	"context"
	"errors"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.GitRefs = (*Storage)(nil)

const headsPrefix = "refs/heads/"

// errNoBranch is the answer to a branch that does not exist.
func errNoBranch(name string) error { return errs.NotFound("branch " + name + " does not exist") }

// ListBranches returns one page of branches by name (ports.GitRefs). Only the
// names of all branches are read; commits are loaded for the page alone.
func (s *Storage) ListBranches(ctx context.Context, p ports.RepoPath, opts ports.ListOptions) ([]ports.GitBranch, int64, error) {
	var (
		out   []ports.GitBranch
		total int64
	)
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		names, err := refNamesUnder(repo, headsPrefix)
		if err != nil {
			return err
		}
		total = int64(len(names))
		out = make([]ports.GitBranch, 0, min(len(names), max(opts.Limit, 0)))
		for _, full := range refPage(names, opts) {
			b, ok, err := branchAt(repo, strings.TrimPrefix(full, headsPrefix))
			if err != nil {
				return err
			}
			if !ok {
				// Gone since the listing, or not pointing at a commit: Gitea
				// skips such a branch and counts it out.
				total--
				continue
			}
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Branch returns one branch (ports.GitRefs).
func (s *Storage) Branch(ctx context.Context, p ports.RepoPath, name string) (ports.GitBranch, error) {
	var b ports.GitBranch
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		var (
			ok  bool
			err error
		)
		if b, ok, err = branchAt(repo, name); err == nil && !ok {
			err = errNoBranch(name)
		}
		return err
	})
	if err != nil {
		return ports.GitBranch{}, err
	}
	return b, nil
}

// BranchTips returns the commit ids the branches names point at
// (ports.GitRefs), on a warm repository handle: libgit2 reads refs from
// disk on every lookup, so a tip is never stale, and no repository is opened
// per call (a pull request list shows its base branch's tip). Absent
// branches, and names Git would refuse, are left out.
func (s *Storage) BranchTips(ctx context.Context, p ports.RepoPath, names []string) (map[string]string, error) {
	out := make(map[string]string, len(names))
	if len(names) == 0 {
		return out, nil
	}
	err := s.withReadRepo(ctx, p, func(repo *git.Repository) error {
		for _, name := range names {
			if _, done := out[name]; done {
				continue
			}
			id, ok, err := branchTip(repo, name)
			if err != nil {
				return err
			}
			if ok {
				out[name] = id
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// branchTip is the commit branch name points at, as branchAt finds it
// without reading the commit; ok is false when there is none.
func branchTip(repo *git.Repository, name string) (string, bool, error) {
	if name == "" || strings.ContainsRune(name, 0) {
		return "", false, nil
	}
	full := headsPrefix + name
	if !refNameValid(full) {
		return "", false, nil
	}
	ref, err := repo.References.Lookup(full)
	if err != nil {
		if refMissing(err) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("libgit2: look up %s: %w", full, err)
	}
	defer ref.Free()
	obj, err := ref.Peel(git.ObjectCommit)
	if err != nil {
		return "", false, nil
	}
	defer obj.Free()
	return obj.Id().String(), true, nil
}

// branchAt reads a branch and its head commit; ok is false when there is no
// such branch (or it names no commit).
func branchAt(repo *git.Repository, name string) (ports.GitBranch, bool, error) {
	if name == "" || strings.ContainsRune(name, 0) {
		return ports.GitBranch{}, false, nil
	}
	full := headsPrefix + name
	if !refNameValid(full) {
		return ports.GitBranch{}, false, nil
	}
	ref, err := repo.References.Lookup(full)
	if err != nil {
		if refMissing(err) {
			return ports.GitBranch{}, false, nil
		}
		return ports.GitBranch{}, false, fmt.Errorf("libgit2: look up %s: %w", full, err)
	}
	defer ref.Free()
	obj, err := ref.Peel(git.ObjectCommit)
	if err != nil {
		return ports.GitBranch{}, false, nil
	}
	defer obj.Free()
	c, err := obj.AsCommit()
	if err != nil {
		return ports.GitBranch{}, false, nil
	}
	defer c.Free()
	return ports.GitBranch{Name: name, Commit: commitInfo(c)}, true, nil
}

// branchConflict says why full cannot be created as a branch, or nil.
// ignore is a branch being renamed, which does not count.
func branchConflict(repo *git.Repository, full, ignore string) error {
	name := strings.TrimPrefix(full, headsPrefix)
	ok, err := hasRef(repo, full)
	if err != nil {
		return err
	}
	if ok {
		return &ports.RefConflictError{Kind: ports.RefExists, Name: full,
			Err: errs.Conflict("branch " + name + " already exists")}
	}
	clash, err := refClash(repo, full, ignore)
	if err != nil {
		return err
	}
	if clash != "" {
		return &ports.RefConflictError{Kind: ports.RefNameClash, Name: clash,
			Err: errs.Conflict("branch " + name + " clashes with " + clash)}
	}
	return nil
}

// CreateBranch creates a branch at a commit (ports.GitRefs). The reference
// is written only if it is still absent under its lock, so of concurrent
// creations one wins and the others get a conflict.
func (s *Storage) CreateBranch(ctx context.Context, p ports.RepoPath, name, commitID string) (ports.GitBranch, error) {
	if err := ctx.Err(); err != nil {
		return ports.GitBranch{}, err
	}
	full, err := refValidName(headsPrefix, name, "BranchName")
	if err != nil {
		return ports.GitBranch{}, err
	}
	var b ports.GitBranch
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := lookupCommit(repo, commitID)
		if err != nil {
			return err
		}
		defer c.Free()
		if err := branchConflict(repo, full, ""); err != nil {
			return err
		}
		tag, err := hasRef(repo, tagsPrefix+name)
		if err != nil {
			return err
		}
		if tag {
			return &ports.RefConflictError{Kind: ports.RefTagExists, Name: tagsPrefix + name,
				Err: errs.Conflict("a tag named " + name + " exists")}
		}
		dir, err := s.repoDir(p)
		if err != nil {
			return err
		}
		if err := refCreateAbsent(dir, full, c.Id(), "branch: Created from "+c.Id().String()); err != nil {
			if errors.Is(err, errRefTaken) {
				return &ports.RefConflictError{Kind: ports.RefExists, Name: full,
					Err: errs.Conflict("branch " + name + " already exists")}
			}
			return err
		}
		b = ports.GitBranch{Name: name, Commit: commitInfo(c)}
		return nil
	})
	if err != nil {
		return ports.GitBranch{}, err
	}
	return b, nil
}

// RenameBranch renames a branch, moving HEAD along when it named it (ports.GitRefs).
func (s *Storage) RenameBranch(ctx context.Context, p ports.RepoPath, from, to string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	newFull, err := refValidName(headsPrefix, to, "Name")
	if err != nil {
		return err
	}
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		// As Gitea: a taken target is reported before a missing source.
		oldFull := headsPrefix + from
		if err := branchConflict(repo, newFull, oldFull); err != nil {
			return err
		}
		if _, ok, err := branchAt(repo, from); err != nil {
			return err
		} else if !ok {
			return errNoBranch(from)
		}
		ref, err := repo.References.Lookup(oldFull)
		if err != nil {
			if refMissing(err) {
				return errNoBranch(from)
			}
			return fmt.Errorf("libgit2: look up %s: %w", oldFull, err)
		}
		defer ref.Free()
		headWasFrom := false
		if head, err := repo.References.Lookup("HEAD"); err == nil {
			headWasFrom = head.SymbolicTarget() == oldFull
			head.Free()
		}
		renamed, err := ref.Rename(newFull, false, "branch: renamed "+oldFull+" to "+newFull)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeExists) || git.IsErrorCode(err, git.ErrorCodeLocked) {
				return &ports.RefConflictError{Kind: ports.RefExists, Name: newFull,
					Err: errs.Conflict("branch " + to + " already exists")}
			}
			if refMissing(err) {
				return errNoBranch(from)
			}
			return fmt.Errorf("libgit2: rename %s: %w", oldFull, err)
		}
		renamed.Free()
		if headWasFrom {
			// libgit2 moves HEAD itself; setting it again keeps this true
			// whatever the library version does.
			if err := repo.SetHead(newFull); err != nil {
				return fmt.Errorf("libgit2: set HEAD: %w", err)
			}
		}
		return nil
	})
}

// DeleteBranch deletes a branch if it has not moved since it was read (ports.GitRefs).
func (s *Storage) DeleteBranch(ctx context.Context, p ports.RepoPath, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	full, err := refValidName(headsPrefix, name, "branch")
	if err != nil {
		return "", errNoBranch(name)
	}
	var oldID string
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		oldID, err = refDelete(repo, full, errNoBranch(name))
		return err
	})
	return oldID, err
}
