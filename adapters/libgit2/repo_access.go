package libgit2

import (
	"context"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// A call gets the repository it works on in one of these ways, which also
// say what a missing repository, a context already done, a ref name Git
// would refuse or a ref naming nothing answer (not found, the context's
// error):
//
//   - withRepo opens the repository for the one call and frees it after;
//     calls that write (refs, commits, tags) and the less frequent reads.
//   - withRevision and withCommit add resolving a branch, tag or commit id
//     (resolve: the names are checked with refNameValid before any lookup)
//     and, for withCommit, looking the commit up and freeing it.
//   - withReadRepo borrows a warm handle from the pool of the hot read
//     paths (trees_pool.go) and gives it back.
//   - openRevision is for the one call whose result keeps the repository
//     open after it returns (an archive streamed later), which frees it.
//
// Each opens the repository at most once per call, as the code it replaced
// did.

// openHook, when set (by tests only), is told the directory of each
// repository opened.
var openHook func(dir string)

// openRepo opens the bare repository in dir exactly, never searching parent
// directories (the data directory could sit inside some other repository).
func openRepo(dir string) (*git.Repository, error) {
	ok, err := dirExists(dir)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoRepo()
	}
	repo, err := git.OpenRepositoryExtended(dir, git.RepositoryOpenNoSearch|git.RepositoryOpenBare, "")
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return nil, errNoRepo()
		}
		return nil, fmt.Errorf("libgit2: open repository: %w", err)
	}
	if openHook != nil {
		openHook(dir)
	}
	return repo, nil
}

// open resolves p and opens its repository; the caller frees it.
func (s *Storage) open(ctx context.Context, p ports.RepoPath) (*git.Repository, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return nil, err
	}
	return openRepo(dir)
}

// withRepo opens p's repository, runs fn on it and frees it.
func (s *Storage) withRepo(ctx context.Context, p ports.RepoPath, fn func(*git.Repository) error) error {
	repo, err := s.open(ctx, p)
	if err != nil {
		return err
	}
	defer repo.Free()
	return fn(repo)
}

// withRevision opens p's repository and runs fn on it with what ref (a
// branch, a tag, a full or abbreviated commit id; "" for HEAD's branch)
// resolves to.
func (s *Storage) withRevision(ctx context.Context, p ports.RepoPath, ref string,
	fn func(*git.Repository, ports.GitRevision) error) error {
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		rev, err := resolve(repo, ref)
		if err != nil {
			return err
		}
		return fn(repo, rev)
	})
}

// withCommit opens p's repository and runs fn on it with the commit ref
// resolves to (as withRevision), freeing both after.
func (s *Storage) withCommit(ctx context.Context, p ports.RepoPath, ref string,
	fn func(*git.Repository, *git.Commit) error) error {
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := resolveCommit(repo, ref)
		if err != nil {
			return err
		}
		defer c.Free()
		return fn(repo, c)
	})
}

// withReadRepo runs fn on a warm repository of p, once more on a fresh one
// when a reused handle fails unexpectedly (a pack removed by a repack under
// a long-lived handle).
func (s *Storage) withReadRepo(ctx context.Context, p ports.RepoPath, fn func(*git.Repository) error) error {
	h, err := s.readRepo(ctx, p)
	if err != nil {
		return err
	}
	err = fn(h.repo)
	if s.retryFresh(&h, err) {
		err = fn(h.repo)
	}
	s.done(h, err)
	return err
}

// openRevision opens p's repository and resolves ref in it (as
// withRevision), for a result that outlives the call: the caller frees the
// repository. dir is the repository's directory.
func (s *Storage) openRevision(ctx context.Context, p ports.RepoPath, ref string) (repo *git.Repository, dir string, rev ports.GitRevision, err error) {
	if err := ctx.Err(); err != nil {
		return nil, "", ports.GitRevision{}, err
	}
	if dir, err = s.repoDir(p); err != nil {
		return nil, "", ports.GitRevision{}, err
	}
	if repo, err = openRepo(dir); err != nil {
		return nil, "", ports.GitRevision{}, err
	}
	if rev, err = resolve(repo, ref); err != nil {
		repo.Free()
		return nil, "", ports.GitRevision{}, err
	}
	return repo, dir, rev, nil
}
