package libgit2

import (
	"container/heap"
	"fmt"
	"time"

	git "github.com/libgit2/git2go/v34"
)

// walkFilter is what a listing selects.
type walkFilter struct {
	start, not   *git.Oid
	path         string
	since, until time.Time
}

// plain reports whether every commit of the walk matches.
func (f walkFilter) plain() bool { return f.path == "" && f.since.IsZero() && f.until.IsZero() }

// pathOnly reports whether the walk is filtered by a path and nothing else:
// such counts are persisted and extended from older tips.
func (f walkFilter) pathOnly() bool {
	return f.path != "" && f.not == nil && f.since.IsZero() && f.until.IsZero()
}

// key identifies the filter's count in the cache of the repository in dir.
func (f walkFilter) key(dir string) countKey {
	k := countKey{dir: dir, start: *f.start, path: f.path}
	if f.not != nil {
		k.not = *f.not
	}
	if !f.since.IsZero() {
		k.since, k.hasSince = f.since.UnixNano(), true
	}
	if !f.until.IsZero() {
		k.until, k.hasUntil = f.until.UnixNano(), true
	}
	return k
}

// commitWalker walks history newest first as git log does: a queue ordered
// by committer date, ties in the order commits were found. With a path it
// simplifies history as git log -- <path> does by default: a merge that
// left the path as one of its parents had it follows that parent only, and
// only commits that changed the path are shown. A commit older than since
// ends its line of history, as in git log --since.
type commitWalker struct {
	repo    *git.Repository
	f       walkFilter
	allowed map[git.Oid]struct{}
	queue   commitQueue
	seen    map[git.Oid]struct{}
	// entries caches the id of f.path in each commit's tree (zero: absent).
	entries map[git.Oid]git.Oid
	seq     uint64
	// boundary, when set, holds the only commits walked: a parent outside
	// it is not queued, and sets reachedBottom when it is bottom, escaped
	// otherwise (extendPathIDs).
	boundary      map[git.Oid]struct{}
	bottom        git.Oid
	reachedBottom bool
	escaped       bool
	// bottomWhen is bottom's committer time and bottomSeq the sequence
	// number bottom would have had in an unbounded walk; outOfOrder is set
	// when such a walk would have shown bottom before a commit this one
	// showed after reaching it.
	bottomWhen int64
	bottomSeq  uint64
	outOfOrder bool
}

func newCommitWalker(repo *git.Repository, f walkFilter, allowed map[git.Oid]struct{}) *commitWalker {
	w := &commitWalker{repo: repo, f: f, allowed: allowed, seen: map[git.Oid]struct{}{}}
	if f.path != "" {
		w.entries = map[git.Oid]git.Oid{}
	}
	return w
}

// free releases the commits still queued.
func (w *commitWalker) free() {
	for _, it := range w.queue {
		it.commit.Free()
	}
	w.queue = nil
}

// relevant reports whether id is part of the walk (not hidden by not).
func (w *commitWalker) relevant(id *git.Oid) bool {
	if w.allowed == nil {
		return true
	}
	_, ok := w.allowed[*id]
	return ok
}

// push queues a commit unless it was seen or is hidden.
func (w *commitWalker) push(id *git.Oid) error {
	if _, ok := w.seen[*id]; ok || !w.relevant(id) {
		return nil
	}
	if w.boundary != nil {
		if _, in := w.boundary[*id]; !in {
			if id.Equal(&w.bottom) {
				if !w.reachedBottom {
					w.reachedBottom, w.bottomSeq = true, w.seq
				}
			} else {
				w.escaped = true
			}
			return nil
		}
	}
	w.seen[*id] = struct{}{}
	c, err := w.repo.LookupCommit(id)
	if err != nil {
		return fmt.Errorf("libgit2: look up commit %s: %w", id, err)
	}
	w.seq++
	heap.Push(&w.queue, queuedCommit{commit: c, when: c.Committer().When.Unix(), seq: w.seq})
	return nil
}

// next returns the next commit to show (the caller frees it), or nil at
// the end.
func (w *commitWalker) next() (*git.Commit, error) {
	for w.queue.Len() > 0 {
		it := heap.Pop(&w.queue).(queuedCommit)
		c := it.commit
		if w.reachedBottom && (it.when < w.bottomWhen || (it.when == w.bottomWhen && it.seq > w.bottomSeq)) {
			// bottom, queued with bottomSeq, would have come out first.
			w.outOfOrder = true
		}
		if !w.f.since.IsZero() && it.when < w.f.since.Unix() {
			c.Free()
			continue
		}
		parents, shown, err := w.simplify(c)
		if err != nil {
			c.Free()
			return nil, err
		}
		for _, p := range parents {
			if err := w.push(p); err != nil {
				c.Free()
				return nil, err
			}
		}
		if !w.f.until.IsZero() && it.when > w.f.until.Unix() {
			shown = false
		}
		if shown {
			return c, nil
		}
		c.Free()
	}
	return nil, nil
}

// simplify returns the parents to follow from c and whether c is shown.
func (w *commitWalker) simplify(c *git.Commit) ([]*git.Oid, bool, error) {
	n := c.ParentCount()
	parents := make([]*git.Oid, 0, n)
	for i := uint(0); i < n; i++ {
		parents = append(parents, c.ParentId(i))
	}
	if w.f.path == "" {
		return parents, true, nil
	}
	mine, err := w.entry(c.Id(), c.TreeId())
	if err != nil {
		return nil, false, err
	}
	if n == 0 {
		return nil, !mine.IsZero(), nil
	}
	relevantParents, irrelevantChange := 0, false
	for _, p := range parents {
		theirs, err := w.parentEntry(p)
		if err != nil {
			return nil, false, err
		}
		// As in git, the commit given as not (the bottom of the range)
		// counts as relevant although it is not walked.
		rel := w.relevant(p) || (w.f.not != nil && p.Equal(w.f.not))
		if theirs.Equal(&mine) {
			if rel {
				// The path came unchanged from this parent: follow it alone.
				return []*git.Oid{p}, false, nil
			}
			continue
		}
		if rel {
			relevantParents++
		} else {
			irrelevantChange = true
		}
	}
	// Every relevant parent differs; with none, a change against a hidden
	// parent still shows the commit, as git does.
	return parents, relevantParents > 0 || irrelevantChange, nil
}

// parentEntry is the path's entry id in the commit id.
func (w *commitWalker) parentEntry(id *git.Oid) (git.Oid, error) {
	if e, ok := w.entries[*id]; ok {
		return e, nil
	}
	c, err := w.repo.LookupCommit(id)
	if err != nil {
		return git.Oid{}, fmt.Errorf("libgit2: look up commit %s: %w", id, err)
	}
	defer c.Free()
	return w.entry(id, c.TreeId())
}

// entry is the id of the path in the tree of commit id (zero when absent).
func (w *commitWalker) entry(id, treeID *git.Oid) (git.Oid, error) {
	if e, ok := w.entries[*id]; ok {
		return e, nil
	}
	tree, err := w.repo.LookupTree(treeID)
	if err != nil {
		return git.Oid{}, fmt.Errorf("libgit2: look up tree %s: %w", treeID, err)
	}
	defer tree.Free()
	var e git.Oid
	te, err := tree.EntryByPath(w.f.path)
	switch {
	case err == nil:
		e = *te.Id
	case git.IsErrorCode(err, git.ErrorCodeNotFound):
	default:
		return git.Oid{}, fmt.Errorf("libgit2: look up %s: %w", w.f.path, err)
	}
	w.entries[*id] = e
	return e, nil
}

// queuedCommit is a commit waiting in the walk's queue.
type queuedCommit struct {
	commit *git.Commit
	when   int64
	seq    uint64
}

// commitQueue is a heap of commits, newest committer date first, then first found.
type commitQueue []queuedCommit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queuedCommit)) }
func (q *commitQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
