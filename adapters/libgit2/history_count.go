package libgit2

import (
	"context"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// countFor returns the count of what f selects in the repository in dir,
// from the cache (and for unfiltered listings the repository's counts file)
// or by walking, and keeps it.
func (s *Storage) countFor(ctx context.Context, repo *git.Repository, dir string, f walkFilter, allowed map[git.Oid]struct{}) (int64, error) {
	key := f.key(dir)
	plain := f.plain() && f.not == nil
	if plain {
		s.history.loadPlain(dir)
	}
	if total, cached := s.history.get(key); cached {
		return total, nil
	}
	total, err := s.countFromRecent(ctx, repo, dir, f)
	if err != nil {
		return 0, err
	}
	if total < 0 {
		if total, err = countCommits(ctx, repo, f, allowed); err != nil {
			return 0, err
		}
	}
	s.history.put(key, total)
	if plain {
		persistPlain(dir, *f.start, total)
	}
	return total, nil
}

// WarmCommitCounts counts, unless known, the commits each of ids reaches,
// so that the first listing of a branch after a push does not pay for the
// walk (ports.GitStorage). At most one warm-up runs at a time: it is
// background work and must not take the cores from requests.
func (s *Storage) WarmCommitCounts(ctx context.Context, p ports.RepoPath, ids []string) error {
	select {
	case s.warming <- struct{}{}:
		defer func() { <-s.warming }()
	case <-ctx.Done():
		return ctx.Err()
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return err
	}
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		for _, id := range ids {
			oid, err := git.NewOid(id)
			if err != nil {
				return fmt.Errorf("libgit2: warm counts: %q is not a commit id", id)
			}
			if c, err := repo.LookupCommit(oid); err != nil {
				continue // not a commit (a tag of a tree, say): nothing to list
			} else {
				c.Free()
			}
			if _, err := s.countFor(ctx, repo, dir, walkFilter{start: oid}, nil); err != nil {
				return err
			}
			// The paths listed lately are indexed for the new tip too: from
			// their index at an older tip, this walks only what was pushed.
			s.history.loadPaths(dir)
			for _, path := range s.history.recentPaths(dir, warmPaths) {
				if _, err := s.indexPath(ctx, repo, dir, walkFilter{start: oid, path: path}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// warmPaths is how many of the paths listed lately a warm-up counts for a
// pushed tip.
const warmPaths = 8

// countFromRecent counts an unfiltered listing from a count cached for an
// ancestor of its start (a branch before its last push): the ancestor's
// count plus what only the new start adds. It returns -1 when no such count
// is cached or it cannot be extended. (Path-filtered listings extend their
// index instead: extendPathIDs.)
func (s *Storage) countFromRecent(ctx context.Context, repo *git.Repository, dir string, f walkFilter) (int64, error) {
	if !f.plain() || f.not != nil {
		return -1, nil
	}
	old, oldTotal, ok := s.history.recent(dir, f.path, *f.start)
	if !ok {
		return -1, nil
	}
	descends, err := repo.DescendantOf(f.start, &old)
	if err != nil || !descends {
		// A rewritten branch: count from scratch.
		return -1, nil
	}
	walk, err := repo.Walk()
	if err != nil {
		return 0, fmt.Errorf("libgit2: revwalk: %w", err)
	}
	defer walk.Free()
	walk.Sorting(git.SortNone)
	if err := walk.Push(f.start); err != nil {
		return 0, fmt.Errorf("libgit2: revwalk push: %w", err)
	}
	if err := walk.Hide(&old); err != nil {
		return 0, fmt.Errorf("libgit2: revwalk hide: %w", err)
	}
	n, err := countWalk(ctx, walk)
	if err != nil {
		return 0, err
	}
	return oldTotal + n, nil
}

// countWalk counts what a prepared revision walk yields.
func countWalk(ctx context.Context, walk *git.RevWalk) (int64, error) {
	var n int64
	var id git.Oid
	for {
		err := walk.Next(&id)
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("libgit2: revwalk: %w", err)
		}
		n++
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
}

// countCommits counts the commits f selects. Without a path or dates it
// lets libgit2 walk the graph, which reads only the commits' headers.
func countCommits(ctx context.Context, repo *git.Repository, f walkFilter, allowed map[git.Oid]struct{}) (int64, error) {
	if f.plain() {
		if allowed != nil {
			return int64(len(allowed)), nil
		}
		walk, err := repo.Walk()
		if err != nil {
			return 0, fmt.Errorf("libgit2: revwalk: %w", err)
		}
		defer walk.Free()
		walk.Sorting(git.SortNone)
		if err := walk.Push(f.start); err != nil {
			return 0, fmt.Errorf("libgit2: revwalk push: %w", err)
		}
		return countWalk(ctx, walk)
	}
	w := newCommitWalker(repo, f, allowed)
	defer w.free()
	if err := w.push(f.start); err != nil {
		return 0, err
	}
	var n int64
	for {
		c, err := w.next()
		if err != nil {
			return 0, err
		}
		if c == nil {
			return n, nil
		}
		c.Free()
		n++
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
}
