package libgit2

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Init creates an empty bare repository whose HEAD points at branch. The
// directory is claimed with one mkdir, so two concurrent Inits of the same
// name cannot both succeed.
func (s *Storage) Init(ctx context.Context, p ports.RepoPath, branch string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return err
	}
	ref, err := branchRef(branch)
	if err != nil {
		return err
	}
	if err := claimDir(dir); err != nil {
		return err
	}
	if err := initBare(dir, ref); err != nil {
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			s.log.Error("remove partly initialised repository", "path", dir, "err", rmErr)
		}
		return err
	}
	return nil
}

// claimDir creates dir (and its owner directory), failing with a conflict
// when dir already exists.
func claimDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("libgit2: create owner directory: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errRepoExists()
		}
		return fmt.Errorf("libgit2: create repository directory: %w", err)
	}
	return nil
}

// initBare initialises a bare repository in the empty directory dir with
// HEAD at the unborn branch ref.
func initBare(dir, ref string) error {
	repo, err := git.InitRepository(dir, true)
	if err != nil {
		return fmt.Errorf("libgit2: init repository: %w", err)
	}
	defer repo.Free()
	if err := repo.SetHead(ref); err != nil {
		return fmt.Errorf("libgit2: set HEAD: %w", err)
	}
	return nil
}

// Delete moves the repository into the trash directory, then removes it. A
// crash between the two leaves only trash, which Sweep clears. Deleting a
// repository that is not on disk succeeds. Its wiki goes first, so that a
// crash never leaves a wiki behind for a later repository of the name.
func (s *Storage) Delete(ctx context.Context, p ports.RepoPath) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.deleteDir(ports.WikiRepoPath(p)); err != nil {
		return err
	}
	return s.deleteDir(p)
}

// deleteDir moves p's directory into the trash, then removes it.
func (s *Storage) deleteDir(p ports.RepoPath) error {
	dir, err := s.repoDir(p)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("libgit2: stat repository: %w", err)
	}
	trash := filepath.Join(s.root, trashDir)
	if err := os.MkdirAll(trash, 0o700); err != nil {
		return fmt.Errorf("libgit2: create trash directory: %w", err)
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("libgit2: trash name: %w", err)
	}
	// The owner and name make leftovers recognisable in Sweep's log.
	aside := filepath.Join(trash, fmt.Sprintf("%s~%s~%s",
		strings.ToLower(p.Owner), filepath.Base(dir), hex.EncodeToString(rnd[:])))
	if err := os.Rename(dir, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted concurrently
		}
		return fmt.Errorf("libgit2: move repository to trash: %w", err)
	}
	if err := os.RemoveAll(aside); err != nil {
		// The repository is gone from its name; Sweep finishes the job.
		s.log.Warn("remove trashed repository", "path", aside, "err", err)
	}
	return nil
}

// Move renames or transfers a repository. Moving onto itself (the same name
// in another case) does nothing.
func (s *Storage) Move(ctx context.Context, from, to ports.RepoPath) error {
	src, dst, err := s.dirPair(ctx, from, to)
	if err != nil {
		return err
	}
	if ok, err := dirExists(src); err != nil {
		return err
	} else if !ok {
		return errNoRepo()
	}
	if src == dst {
		return nil
	}
	if _, err := os.Lstat(dst); err == nil {
		return errRepoExists()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("libgit2: stat target repository: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("libgit2: create owner directory: %w", err)
	}
	if err := os.Rename(src, dst); err != nil {
		if errors.Is(err, fs.ErrExist) || isNotEmpty(err) {
			return errRepoExists()
		}
		if errors.Is(err, fs.ErrNotExist) {
			return errNoRepo()
		}
		return fmt.Errorf("libgit2: move repository: %w", err)
	}
	if err := s.moveWiki(from, to); err != nil {
		if back := os.Rename(dst, src); back != nil {
			s.log.Error("move repository back after its wiki failed to move", "from", dst, "to", src, "err", back)
		}
		return err
	}
	return nil
}

// moveWiki makes the wiki follow its repository, after the repository
// moved. A wiki is moved only after its repository, so a move undone after
// a crash (Move back from to to from) finds the wiki either moved with it or
// still in place; one not there is not an error.
func (s *Storage) moveWiki(from, to ports.RepoPath) error {
	src, err := s.repoDir(ports.WikiRepoPath(from))
	if err != nil {
		return err
	}
	dst, err := s.repoDir(ports.WikiRepoPath(to))
	if err != nil {
		return err
	}
	if ok, err := dirExists(src); err != nil || !ok || src == dst {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return errs.Conflict("wiki files already exist")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("libgit2: stat target wiki: %w", err)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("libgit2: move wiki: %w", err)
	}
	return nil
}

// isNotEmpty reports whether err says a directory was not empty, which a
// rename onto an existing repository returns.
func isNotEmpty(err error) bool { return errors.Is(err, syscall.ENOTEMPTY) }

// Sweep removes what crashed deletions left in the trash directory.
func (s *Storage) Sweep(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	trash := filepath.Join(s.root, trashDir)
	entries, err := os.ReadDir(trash)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("libgit2: read trash directory: %w", err)
	}
	var failed error
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		path := filepath.Join(trash, e.Name())
		if err := os.RemoveAll(path); err != nil {
			s.log.Error("sweep trashed repository", "path", path, "err", err)
			failed = errors.Join(failed, err)
			continue
		}
		s.log.Info("swept trashed repository", "path", path)
	}
	if failed != nil {
		return fmt.Errorf("libgit2: sweep trash: %w", failed)
	}
	return nil
}

// Exists reports whether a repository is on disk at p: the directory exists
// and opens as a Git repository.
func (s *Storage) Exists(ctx context.Context, p ports.RepoPath) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return false, err
	}
	if ok, err := dirExists(dir); err != nil || !ok {
		return false, err
	}
	repo, err := git.OpenRepositoryExtended(dir, git.RepositoryOpenNoSearch|git.RepositoryOpenBare, "")
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return false, nil
		}
		return false, fmt.Errorf("libgit2: open repository: %w", err)
	}
	repo.Free()
	return true, nil
}

// Size is the total size in bytes of the regular files of the repository.
func (s *Storage) Size(ctx context.Context, p ports.RepoPath) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return 0, err
	}
	if ok, err := dirExists(dir); err != nil {
		return 0, err
	} else if !ok {
		return 0, errNoRepo()
	}
	var total int64
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking (a repack, a ref update)
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		total += info.Size()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("libgit2: repository size: %w", err)
	}
	return total, nil
}
