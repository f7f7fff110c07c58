// Package libgit2 keeps the bare Git repositories on disk with git2go
// (libgit2), implementing ports.GitStorage.
//
// Repositories live at <root>/<lower owner>/<lower name>.git. git2go objects
// are not safe for concurrent use, so a repository handle serves one call at
// a time and each call frees the objects it created (a streamed blob, when
// its reader is closed). Calls get their repository through repo_access.go:
// most open the repository they work on and free it before returning; the
// hot read paths (contents, raw and media, git/trees, git/blobs) instead
// borrow a warm handle from a pool and give it back (trees_pool.go), which
// drops handles whose directory changed, that sat idle too long, or that
// failed unexpectedly.
package libgit2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// trashDir is where Delete moves repositories before removing them. Owner
// names may not start with ".", so it never collides with an owner.
const trashDir = ".trash"

// Storage keeps bare repositories under one root directory.
type Storage struct {
	root string
	log  *slog.Logger
	// signer signs the commits the storage writes itself; nil signs none
	// (commit_signing.go).
	signer ports.CommitSigner
	// reads keeps warm repositories and last-commit answers for the read
	// paths (trees_pool.go); its zero value is ready.
	reads readState
	// history caches commit counts (history_cache.go); its zero value is ready.
	history countCache
	// warming lets one commit-count warm-up or path indexing run at a time.
	warming chan struct{}
	// bg runs the storage's own background work (background.go).
	bg *background
	// analyses caches languages and licences by commit (analyses.go); its zero value is ready.
	analyses analyses
	// wikiInit serialises the creation of wikis by their first write (wiki.go).
	wikiInit sync.Mutex
}

var _ ports.GitStorage = (*Storage)(nil)

// New returns a Storage rooted at root (normally <data>/repos), creating the
// directory with mode 0700 when it is missing.
func New(root string, log *slog.Logger) (*Storage, error) {
	if root == "" {
		return nil, errors.New("libgit2: empty repository root")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("libgit2: repository root: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("libgit2: create repository root: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Storage{root: abs, log: log.With("component", "gitstorage"), warming: make(chan struct{}, 1), bg: newBackground()}
	s.history.stats = ports.NewCacheStats("git_commit_counts", true)
	s.reads.blobs.stats = ports.NewCacheStats("git_blobs", true)
	s.reads.memo.stats = ports.NewCacheStats("git_last_commits", true)
	return s, nil
}

// CacheStats count the lookups in the storage's caches (commit counts,
// blobs, the last commits of paths), for the metrics page.
func (s *Storage) CacheStats() []*ports.CacheStats {
	return []*ports.CacheStats{s.history.stats, s.reads.blobs.stats, s.reads.memo.stats}
}

// Close stops the storage's background work and waits for it.
func (s *Storage) Close() { s.bg.close() }

// errNoRepo is returned when an operation needs a repository that is not on disk.
func errNoRepo() error { return errs.NotFound("repository files do not exist") }

// errRepoExists is returned when a repository would be created over another.
func errRepoExists() error { return errs.Conflict("repository files already exist") }

// validSegment reports why s cannot be one path segment of a repository
// address, or nil. Names are checked by the domain already; this is the last
// line against anything that would leave the root.
func validSegment(s string) error {
	switch {
	case s == "":
		return errors.New("is empty")
	case s == "." || s == "..":
		return errors.New("is a relative directory")
	case strings.HasPrefix(s, "."):
		return errors.New("starts with a dot")
	case strings.ContainsAny(s, "/\\\x00"):
		return errors.New("contains a separator or NUL")
	}
	return nil
}

// ownerDir returns the directory holding p's owner's repositories.
func (s *Storage) ownerDir(p ports.RepoPath) (string, error) {
	owner := strings.ToLower(p.Owner)
	if err := validSegment(owner); err != nil {
		return "", errs.Invalid("repository owner "+err.Error(), "owner")
	}
	dir := filepath.Join(s.root, owner)
	if filepath.Dir(dir) != s.root {
		return "", errs.Invalid("repository owner escapes the storage root", "owner")
	}
	return dir, nil
}

// dirPair checks ctx and returns the directories of a source and a target
// repository, for operations that copy or move one onto the other.
func (s *Storage) dirPair(ctx context.Context, from, to ports.RepoPath) (src, dst string, err error) {
	if err := ctx.Err(); err != nil {
		return "", "", err
	}
	if src, err = s.repoDir(from); err != nil {
		return "", "", err
	}
	if dst, err = s.repoDir(to); err != nil {
		return "", "", err
	}
	return src, dst, nil
}

// repoDir returns the directory of p's bare repository.
func (s *Storage) repoDir(p ports.RepoPath) (string, error) {
	owner, err := s.ownerDir(p)
	if err != nil {
		return "", err
	}
	name := strings.ToLower(p.Name)
	if err := validSegment(name); err != nil {
		return "", errs.Invalid("repository name "+err.Error(), "name")
	}
	dir := filepath.Join(owner, name+".git")
	if filepath.Dir(dir) != owner {
		return "", errs.Invalid("repository name escapes the storage root", "name")
	}
	return dir, nil
}

// branchRef returns the full reference name of branch, refusing names Git
// would not accept.
func branchRef(branch string) (string, error) {
	if branch == "" {
		return "", errs.Invalid("branch name is empty", "branch")
	}
	ref := "refs/heads/" + branch
	if !refNameValid(ref) || strings.HasPrefix(branch, "-") {
		return "", errs.Invalid("invalid branch name", "branch")
	}
	return ref, nil
}

// dirExists reports whether dir is an existing directory.
func dirExists(dir string) (bool, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("libgit2: stat repository: %w", err)
	}
	return fi.IsDir(), nil
}
