package libgit2

import (
	"context"
	"errors"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.GitWiki = (*Storage)(nil)

// errNoWiki answers a read of a wiki that has no page yet.
func errNoWiki() error { return errs.NotFound("wiki does not exist") }

// withWikiTree opens p's wiki and runs fn on the tree of its branch.
func (s *Storage) withWikiTree(ctx context.Context, p ports.RepoPath, branch string,
	fn func(*git.Repository, *git.Tree) error) error {
	err := s.withRepo(ctx, ports.WikiRepoPath(p), func(repo *git.Repository) error {
		ref, err := wikiRef(repo, branch)
		if err != nil {
			return err
		}
		r, err := repo.References.Lookup(ref)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return errNoWiki()
			}
			return fmt.Errorf("libgit2: look up wiki branch: %w", err)
		}
		defer r.Free()
		obj, err := r.Peel(git.ObjectCommit)
		if err != nil {
			return fmt.Errorf("libgit2: peel wiki branch: %w", err)
		}
		defer obj.Free()
		c, err := obj.AsCommit()
		if err != nil {
			return fmt.Errorf("libgit2: wiki branch commit: %w", err)
		}
		tree, err := c.Tree()
		if err != nil {
			return fmt.Errorf("libgit2: wiki tree: %w", err)
		}
		defer tree.Free()
		return fn(repo, tree)
	})
	if errors.Is(err, errs.ErrNotFound) && errs.Message(err) == errs.Message(errNoRepo()) {
		return errNoWiki()
	}
	return err
}

// WikiEntries lists the files at the root of the wiki (ports.GitWiki).
func (s *Storage) WikiEntries(ctx context.Context, p ports.RepoPath, branch string) ([]ports.WikiEntry, error) {
	var out []ports.WikiEntry
	err := s.withWikiTree(ctx, p, branch, func(_ *git.Repository, tree *git.Tree) error {
		n := tree.EntryCount()
		out = make([]ports.WikiEntry, 0, n)
		for i := uint64(0); i < n; i++ {
			e := tree.EntryByIndex(i)
			regular := e.Type == git.ObjectBlob && (e.Filemode == git.FilemodeBlob || e.Filemode == git.FilemodeBlobExecutable)
			out = append(out, ports.WikiEntry{Name: e.Name, Regular: regular})
		}
		return nil
	})
	return out, err
}

// WikiFile reads a file of the wiki (ports.GitWiki).
func (s *Storage) WikiFile(ctx context.Context, p ports.RepoPath, branch, file string, max int64) ([]byte, int64, error) {
	if !repository.WikiFileSafe(file) {
		return nil, 0, errs.NotFound("wiki page does not exist")
	}
	var (
		content []byte
		size    int64
	)
	err := s.withWikiTree(ctx, p, branch, func(repo *git.Repository, tree *git.Tree) error {
		e, err := tree.EntryByPath(file)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return errs.NotFound("wiki page does not exist")
			}
			return fmt.Errorf("libgit2: wiki entry: %w", err)
		}
		if e.Type != git.ObjectBlob {
			return errs.NotFound("wiki page does not exist")
		}
		b, err := repo.LookupBlob(e.Id)
		if err != nil {
			return fmt.Errorf("libgit2: wiki blob: %w", err)
		}
		defer b.Free()
		size = b.Size()
		if size <= max {
			content = append([]byte{}, b.Contents()...)
		}
		return nil
	})
	return content, size, err
}

// WriteWiki commits one change of the wiki on the branch its HEAD names,
// creating it first (HEAD at w.Branch) when it does not exist (ports.GitWiki).
func (s *Storage) WriteWiki(ctx context.Context, p ports.RepoPath, w ports.WikiWrite) (ports.GitCommitInfo, error) {
	for _, f := range []string{w.Put, w.Remove} {
		if f != "" && !repository.WikiFileSafe(f) {
			return ports.GitCommitInfo{}, errs.Invalid("wiki page name leaves the wiki", "title")
		}
	}
	if w.Put == "" && w.Remove == "" {
		return ports.GitCommitInfo{}, errs.Invalid("nothing to write", "title")
	}
	if w.Put != "" { // a deletion never creates the wiki
		if err := s.ensureWiki(ctx, p, w.Branch); err != nil {
			return ports.GitCommitInfo{}, err
		}
	}
	var out ports.GitCommitInfo
	err := s.withRepo(ctx, ports.WikiRepoPath(p), func(repo *git.Repository) error {
		var blob *git.Oid
		if w.Put != "" {
			var err error
			if blob, err = repo.CreateBlobFromBuffer(w.Content); err != nil {
				return fmt.Errorf("libgit2: write wiki blob: %w", err)
			}
		}
		build := func(base *git.Tree) (*git.Oid, error) {
			has := func(f string) (bool, error) {
				if base == nil {
					return false, nil
				}
				_, err := base.EntryByPath(f)
				if err != nil {
					if git.IsErrorCode(err, git.ErrorCodeNotFound) {
						return false, nil
					}
					return false, fmt.Errorf("libgit2: wiki entry: %w", err)
				}
				return true, nil
			}
			var edits []changeEdit
			if w.Remove != "" && w.Remove != w.Put {
				ok, err := has(w.Remove)
				if err != nil {
					return nil, err
				}
				if !ok && w.Put == "" {
					return nil, errs.NotFound("wiki page does not exist")
				}
				if ok {
					edits = append(edits, changeEdit{path: w.Remove, remove: true})
				}
			}
			if w.Put != "" {
				if w.Create {
					ok, err := has(w.Put)
					if err != nil {
						return nil, err
					}
					if ok {
						return nil, errs.Conflict("wiki page already exists")
					}
				}
				edits = append(edits, changeEdit{path: w.Put, id: blob, mode: git.FilemodeBlob})
			}
			return changeEditTree(repo, base, edits, "")
		}
		ref, err := wikiRef(repo, "")
		if err != nil {
			return err
		}
		t := ports.GitChangeTarget{Branch: strings.TrimPrefix(ref, "refs/heads/"), Message: w.Message, Author: w.Author, Committer: w.Committer}
		id, _, err := changeCommit(ctx, s.commits(), repo, t, true, build, nil)
		if err != nil {
			return err
		}
		c, err := repo.LookupCommit(id)
		if err != nil {
			return fmt.Errorf("libgit2: read wiki commit: %w", err)
		}
		defer c.Free()
		out = commitInfo(c)
		return nil
	})
	if errors.Is(err, errs.ErrNotFound) && errs.Message(err) == errs.Message(errNoRepo()) {
		return out, errNoWiki()
	}
	return out, err
}

// ensureWiki creates p's wiki, with HEAD at branch, unless it exists.
func (s *Storage) ensureWiki(ctx context.Context, p ports.RepoPath, branch string) error {
	s.wikiInit.Lock()
	defer s.wikiInit.Unlock()
	ok, err := s.Exists(ctx, ports.WikiRepoPath(p))
	if err != nil || ok {
		return err
	}
	if ok, err := s.Exists(ctx, p); err != nil {
		return err
	} else if !ok {
		return errNoRepo()
	}
	err = s.Init(ctx, ports.WikiRepoPath(p), branch)
	if errors.Is(err, errs.ErrConflict) {
		return nil
	}
	return err
}

// wikiRef is the full name of branch in the wiki, or of the branch its HEAD
// names when branch is "" (a wiki pushed with another default branch is
// read and written there).
func wikiRef(repo *git.Repository, branch string) (string, error) {
	if branch != "" {
		return branchRef(branch)
	}
	head, err := repo.References.Lookup("HEAD")
	if err != nil {
		return "", fmt.Errorf("libgit2: wiki HEAD: %w", err)
	}
	defer head.Free()
	target := head.SymbolicTarget()
	if !strings.HasPrefix(target, "refs/heads/") {
		return "", errNoWiki()
	}
	return target, nil
}
