package libgit2

import (
	"context"
	"fmt"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// listPath answers a listing filtered by a path alone. From the path's
// index at the listing's tip (history_pathindex.go) a page costs only its
// own commits. Without one it is built: extended from an older tip's index
// when the tip descends from it, else by walking the history. A walk that
// outlasts q.CountBudget once it has the page stops there; the index is
// then built in the background, and the total is -1 unless a count is
// known, with one commit past the page when more follow.
func (s *Storage) listPath(ctx context.Context, p ports.RepoPath, repo *git.Repository, dir string, f walkFilter,
	q ports.CommitListQuery, page ports.ListOptions) ([]ports.CommitDetail, int64, error) {
	off := page.Offset()
	if x, ok := openPathIndex(dir, f.path, *f.start); ok {
		defer x.close()
		ids, err := x.ids(off, page.Limit)
		if err == nil {
			out, err := commitDetails(ctx, repo, ids, q.Extras)
			return out, x.count, err
		}
	}
	ids, complete, err := s.pathIDs(ctx, repo, dir, f, off+page.Limit+1, q.CountBudget)
	if err != nil {
		return nil, 0, err
	}
	key := f.key(dir)
	total := int64(-1)
	if complete {
		total = int64(len(ids))
		s.history.put(key, total)
		persistPath(dir, *f.start, f.path, total)
	} else {
		s.history.loadPaths(dir)
		if known, ok := s.history.get(key); ok {
			total = known
		}
		if total < 0 || total <= pathIndexMax {
			s.indexLater(p, f)
		}
	}
	end := off + page.Limit
	if total < 0 {
		end++ // the caller learns that more follow
	}
	ids = ids[min(off, len(ids)):min(end, len(ids))]
	out, err := commitDetails(ctx, repo, ids, q.Extras)
	return out, total, err
}

// indexPath builds, unless it exists, the index of the path-only listing f
// and returns its length.
func (s *Storage) indexPath(ctx context.Context, repo *git.Repository, dir string, f walkFilter) (int64, error) {
	if x, ok := openPathIndex(dir, f.path, *f.start); ok {
		x.close()
		return x.count, nil
	}
	ids, _, err := s.pathIDs(ctx, repo, dir, f, 0, 0)
	if err != nil {
		return 0, err
	}
	total := int64(len(ids))
	s.history.put(f.key(dir), total)
	persistPath(dir, *f.start, f.path, total)
	return total, nil
}

// indexLater builds the index of the path-only listing f of p in the
// background, once at a time per listing and after any other background
// walk.
func (s *Storage) indexLater(p ports.RepoPath, f walkFilter) {
	key := fmt.Sprintf("path-index %s/%s %s %q", p.Owner, p.Name, f.start, f.path)
	s.bg.run(key, s.warming, func(ctx context.Context) {
		dir, err := s.repoDir(p)
		if err != nil {
			return
		}
		// A repository that cannot be opened (deleted since) is not worth
		// a warning: there is nothing left to index.
		_ = s.withRepo(ctx, p, func(repo *git.Repository) error {
			if _, err := s.indexPath(ctx, repo, dir, f); err != nil && ctx.Err() == nil {
				s.log.Warn("indexing a path's history", "repo", p.Owner+"/"+p.Name, "path", f.path, "err", err)
			}
			return nil
		})
	})
}

// pathIDs returns the commits the path-only listing f shows, in order, and
// writes them as its index when it has them all. It extends an older
// tip's index when it can; otherwise it walks, and with a budget stops
// once it holds need commits and has taken longer than budget (complete
// is then false).
func (s *Storage) pathIDs(ctx context.Context, repo *git.Repository, dir string, f walkFilter, need int,
	budget time.Duration) (ids []git.Oid, complete bool, err error) {
	if ids, ok, err := extendPathIDs(ctx, repo, dir, f); err != nil || ok {
		if ok {
			writePathIndex(dir, f.path, *f.start, ids)
		}
		return ids, ok, err
	}
	started := time.Now()
	w := newCommitWalker(repo, f, nil)
	defer w.free()
	if err := w.push(f.start); err != nil {
		return nil, false, err
	}
	for {
		c, err := w.next()
		if err != nil {
			return nil, false, err
		}
		if c == nil {
			break
		}
		ids = append(ids, *c.Id())
		c.Free()
		if len(ids)%64 == 0 || len(ids) == need {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
			if budget > 0 && len(ids) >= need && time.Since(started) > budget {
				return ids, false, nil
			}
		}
	}
	writePathIndex(dir, f.path, *f.start, ids)
	return ids, true, nil
}

// extendPathIDs builds the listing f from the index of an older tip that
// f.start descends from (a branch before a push), walking only the commits
// the older tip does not reach; ok is false when no such index can be used.
//
// The simplified walk's choices depend only on each commit and its
// parents, so when every line it follows out of the new commits enters the
// older tip itself, and a walk from f.start would have shown every new
// commit before reaching the older tip (which orders by committer date),
// it goes on exactly as the walk from the older tip did: the listing is
// the new commits shown, then the older tip's. A line entering the older
// history below the tip (a merge of an older branch, say) could show
// commits the older walk left out, and clock skew can interleave the two:
// both cases give up, and the caller walks from scratch.
func extendPathIDs(ctx context.Context, repo *git.Repository, dir string, f walkFilter) ([]git.Oid, bool, error) {
	for _, old := range pathIndexTips(dir, f.path) {
		if old == *f.start {
			continue
		}
		descends, err := repo.DescendantOf(f.start, &old)
		if err != nil || !descends {
			continue
		}
		added, reachedOld, ok, err := walkAdded(ctx, repo, f, old)
		if err != nil || !ok {
			return nil, false, err
		}
		if !reachedOld {
			return added, true, nil
		}
		older, ok := readPathIndex(dir, f.path, old)
		if !ok || len(added)+len(older) > pathIndexMax {
			return nil, false, nil
		}
		return append(added, older...), true, nil
	}
	return nil, false, nil
}

// walkAdded walks the path-only listing f over the commits old does not
// reach and returns those it shows; ok is false when the result cannot be
// put in front of old's listing (extendPathIDs).
func walkAdded(ctx context.Context, repo *git.Repository, f walkFilter, old git.Oid) (shown []git.Oid, reachedOld, ok bool, err error) {
	added, err := reachable(repo, f.start, &old)
	if err != nil {
		return nil, false, false, err
	}
	oldCommit, err := repo.LookupCommit(&old)
	if err != nil {
		return nil, false, false, fmt.Errorf("libgit2: look up commit %s: %w", old, err)
	}
	bottomWhen := oldCommit.Committer().When.Unix()
	oldCommit.Free()
	w := newCommitWalker(repo, walkFilter{start: f.start, path: f.path}, nil)
	defer w.free()
	w.boundary, w.bottom, w.bottomWhen = added, old, bottomWhen
	if err := w.push(f.start); err != nil {
		return nil, false, false, err
	}
	for !w.escaped && !w.outOfOrder {
		c, err := w.next()
		if err != nil {
			return nil, false, false, err
		}
		if c == nil {
			break
		}
		shown = append(shown, *c.Id())
		c.Free()
		if len(shown)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, false, err
			}
		}
	}
	if w.escaped || w.outOfOrder {
		return nil, false, false, nil
	}
	return shown, w.reachedBottom, true, nil
}

// commitDetails looks ids up and copies them out with extras.
func commitDetails(ctx context.Context, repo *git.Repository, ids []git.Oid, extras ports.CommitExtras) ([]ports.CommitDetail, error) {
	out := make([]ports.CommitDetail, 0, len(ids))
	for i := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := repo.LookupCommit(&ids[i])
		if err != nil {
			return nil, fmt.Errorf("libgit2: look up commit %s: %w", ids[i], err)
		}
		if out, err = appendDetail(repo, out, c, extras); err != nil {
			return nil, err
		}
	}
	return out, nil
}
