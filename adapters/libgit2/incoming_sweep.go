package libgit2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tmpObjdirPrefix starts the names of the object directories git makes
// under objects/ for work not yet accepted: receive-pack keeps a push's
// objects in tmp_objdir-incoming-XXXXXX until its pre-receive hook accepts
// them. git removes it when the push ends, but not when it is killed or its
// server dies, and nothing removes it later.
const tmpObjdirPrefix = "tmp_objdir-"

// SweepIncoming removes the temporary object directories that interrupted
// pushes left in the repositories, those unchanged for maxAge or longer
// (every file and directory in them counts, so a push still writing is
// never touched), and returns how many it removed. A failure to remove one
// is logged and reported after the others were tried.
func (s *Storage) SweepIncoming(ctx context.Context, maxAge time.Duration) (int, error) {
	owners, err := os.ReadDir(s.root)
	if err != nil {
		return 0, fmt.Errorf("libgit2: read repository root: %w", err)
	}
	now := time.Now()
	removed := 0
	var failed error
	for _, owner := range owners {
		// .trash and .moves hold no live repository.
		if !owner.IsDir() || strings.HasPrefix(owner.Name(), ".") {
			continue
		}
		repos, err := os.ReadDir(filepath.Join(s.root, owner.Name()))
		if err != nil {
			failed = errors.Join(failed, err)
			continue
		}
		for _, repo := range repos {
			if err := ctx.Err(); err != nil {
				return removed, err
			}
			if !repo.IsDir() || !strings.HasSuffix(repo.Name(), ".git") {
				continue
			}
			n, err := s.sweepRepoIncoming(filepath.Join(s.root, owner.Name(), repo.Name(), "objects"), now, maxAge)
			removed += n
			failed = errors.Join(failed, err)
		}
	}
	if failed != nil {
		return removed, fmt.Errorf("libgit2: sweep incoming objects: %w", failed)
	}
	return removed, nil
}

// sweepRepoIncoming sweeps one repository's objects directory.
func (s *Storage) sweepRepoIncoming(objects string, now time.Time, maxAge time.Duration) (int, error) {
	entries, err := os.ReadDir(objects)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	removed := 0
	var failed error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tmpObjdirPrefix) {
			continue
		}
		dir := filepath.Join(objects, e.Name())
		last, err := lastChange(dir)
		if err != nil {
			failed = errors.Join(failed, err)
			continue
		}
		if last.IsZero() || now.Sub(last) < maxAge {
			// Gone meanwhile (the push ended), or still fresh.
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			s.log.Error("removing an interrupted push's objects", "path", dir, "err", err)
			failed = errors.Join(failed, err)
			continue
		}
		removed++
		s.log.Info("removed an interrupted push's objects", "path", dir, "last_change", last)
	}
	return removed, failed
}

// lastChange is the latest modification time of dir or anything in it.
func lastChange(dir string) (time.Time, error) {
	var last time.Time
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // git removed it meanwhile
			}
			return err
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if t := info.ModTime(); t.After(last) {
			last = t
		}
		return nil
	})
	return last, err
}
