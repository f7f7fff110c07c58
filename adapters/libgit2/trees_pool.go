package libgit2

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// readState is what the read paths (contents, raw, trees, blobs) keep
// between calls; its zero value is ready.
type readState struct {
	pool  repoPool
	memo  lastCommitCache
	blobs blobCache
}

// Opening a repository and touching its first objects (config files,
// ownership checks, pack indexes) costs about ten times what reading a small
// file from a warm one does, so the read paths reuse opened repositories.
// A handle is used by one goroutine at a time (git2go objects are not safe
// for concurrent use) and stays correct across requests: libgit2 reads refs
// from disk on every lookup and rescans the packs when an object is
// missing. A handle is dropped when its directory is no longer the same one
// (removed, recreated, or its HEAD, config or packed-refs rewritten), after
// poolIdleTTL unused, and when more than poolMaxIdle are idle.
const (
	poolMaxIdle = 64
	poolIdleTTL = 10 * time.Second
)

// repoPool holds idle opened repositories.
type repoPool struct {
	mu sync.Mutex
	// idle is ordered by the time each was put back, oldest first.
	idle []*pooledRepo
}

// pooledRepo is an opened repository and the directory it was opened from.
type pooledRepo struct {
	repo *git.Repository
	dir  string
	// stat is the directory as it was when opened.
	stat fs.FileInfo
	// reused says the handle served an earlier call.
	reused    bool
	idleSince time.Time
}

// sameDir reports whether two stats are the same unchanged directory.
func sameDir(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime())
}

// get returns a repository of dir for the caller's exclusive use: an idle
// one of the same directory, or a fresh one.
func (p *repoPool) get(dir string) (*pooledRepo, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil, errNoRepo()
		}
		return nil, err
	}
	now := time.Now()
	var found *pooledRepo
	var drop []*pooledRepo
	p.mu.Lock()
	keep := p.idle[:0]
	for _, h := range p.idle {
		switch {
		case now.Sub(h.idleSince) > poolIdleTTL:
			drop = append(drop, h)
		case found == nil && h.dir == dir && sameDir(h.stat, st):
			found = h
		case h.dir == dir && !sameDir(h.stat, st):
			drop = append(drop, h)
		default:
			keep = append(keep, h)
		}
	}
	clear(p.idle[len(keep):])
	p.idle = keep
	p.mu.Unlock()
	for _, h := range drop {
		h.repo.Free()
	}
	if found != nil {
		found.reused = true
		return found, nil
	}
	return openPooled(dir, st)
}

// openPooled opens dir afresh.
func openPooled(dir string, st fs.FileInfo) (*pooledRepo, error) {
	repo, err := openRepo(dir)
	if err != nil {
		return nil, err
	}
	return &pooledRepo{repo: repo, dir: dir, stat: st}, nil
}

// put gives h back for later calls, evicting the oldest when too many idle.
func (p *repoPool) put(h *pooledRepo) {
	h.idleSince = time.Now()
	var evicted *pooledRepo
	p.mu.Lock()
	p.idle = append(p.idle, h)
	if len(p.idle) > poolMaxIdle {
		evicted = p.idle[0]
		p.idle[0] = nil
		p.idle = p.idle[1:]
	}
	p.mu.Unlock()
	if evicted != nil {
		evicted.repo.Free()
	}
}

// isAnswer reports whether err is a categorised answer (not found,
// invalid, …) or a cancelled request rather than a failure of the handle.
func isAnswer(err error) bool {
	var e *errs.Error
	return errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// readRepo returns a warm repository of p for one read; the caller gives it
// back with done.
func (s *Storage) readRepo(ctx context.Context, p ports.RepoPath) (*pooledRepo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return nil, err
	}
	return s.reads.pool.get(dir)
}

// retryFresh replaces a reused handle that failed with a freshly opened
// one, for a second try; it reports false when a retry makes no sense.
func (s *Storage) retryFresh(h **pooledRepo, err error) bool {
	if err == nil || isAnswer(err) || !(*h).reused {
		return false
	}
	old := *h
	fresh, ferr := openPooled(old.dir, old.stat)
	old.repo.Free()
	if ferr != nil {
		*h = nil
		return false
	}
	*h = fresh
	return true
}

// done gives h back after a call that ended with err: a handle that failed
// for another reason than a categorised answer is not trusted again.
func (s *Storage) done(h *pooledRepo, err error) {
	if h == nil {
		return
	}
	if err != nil && !isAnswer(err) {
		h.repo.Free()
		return
	}
	s.reads.pool.put(h)
}
