package libgit2

import (
	"container/heap"
	"context"
	"fmt"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// maxCompareCommits bounds the commits a comparison renders, as GitHub's
// compare does (250); the total is still exact.
const maxCompareCommits = 250

// ListCommits returns one page of the commits q selects, and their count
// (ports.GitHistory).
func (s *Storage) ListCommits(ctx context.Context, p ports.RepoPath, q ports.CommitListQuery, page ports.ListOptions) ([]ports.CommitDetail, int64, error) {
	dir, err := s.repoDir(p)
	if err != nil {
		return nil, 0, err
	}
	var (
		out   []ports.CommitDetail
		total int64
	)
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		out, total, err = s.listCommits(ctx, p, repo, dir, q, page)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// listCommits implements ListCommits on p's open repository in dir.
func (s *Storage) listCommits(ctx context.Context, p ports.RepoPath, repo *git.Repository, dir string, q ports.CommitListQuery,
	page ports.ListOptions) ([]ports.CommitDetail, int64, error) {
	var err error
	f := walkFilter{path: q.Path, since: q.Since, until: q.Until}
	if f.start, err = resolveOid(repo, q.Ref); err != nil {
		return nil, 0, err
	}
	if q.Not != "" {
		if f.not, err = resolveOid(repo, q.Not); err != nil {
			return nil, 0, err
		}
	}
	var allowed map[git.Oid]struct{}
	if f.not != nil {
		// The commits reachable from start but not from not: libgit2's
		// walk stops as soon as only hidden commits are left, so a short
		// range costs little whatever the repository's size.
		if allowed, err = reachable(repo, f.start, f.not); err != nil {
			return nil, 0, err
		}
	}

	if f.pathOnly() && !q.SkipTotal {
		return s.listPath(ctx, p, repo, dir, f, q, page)
	}
	total := int64(-1)
	if !q.SkipTotal {
		if total, err = s.countFor(ctx, repo, dir, f, allowed); err != nil {
			return nil, 0, err
		}
	}

	w := newCommitWalker(repo, f, allowed)
	defer w.free()
	if err := w.push(f.start); err != nil {
		return nil, 0, err
	}
	out, err := appendCommits(ctx, repo, w, make([]ports.CommitDetail, 0, pageCap(page.Limit, total)), page.Offset(), page.Limit, q.Extras)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// CommitDetail returns one commit with its extras (ports.GitHistory).
func (s *Storage) CommitDetail(ctx context.Context, p ports.RepoPath, ref string, extras ports.CommitExtras) (ports.CommitDetail, error) {
	var d ports.CommitDetail
	err := s.withCommit(ctx, p, ref, func(repo *git.Repository, c *git.Commit) error {
		var err error
		d, err = commitDetail(repo, c, extras)
		return err
	})
	return d, err
}

// CompareCommits lists what head has that base has not (ports.GitHistory).
func (s *Storage) CompareCommits(ctx context.Context, p ports.RepoPath, base, head string, direct bool, extras ports.CommitExtras) (ports.CommitComparison, error) {
	var cmp ports.CommitComparison
	err := s.withCommit(ctx, p, base, func(repo *git.Repository, baseCommit *git.Commit) error {
		var err error
		cmp, err = compareCommits(ctx, repo, baseCommit, head, direct, extras)
		return err
	})
	return cmp, err
}

// compareCommits implements CompareCommits on an open repository, from
// base's commit.
func compareCommits(ctx context.Context, repo *git.Repository, baseCommit *git.Commit, head string, direct bool,
	extras ports.CommitExtras) (ports.CommitComparison, error) {
	headCommit, err := resolveCommit(repo, head)
	if err != nil {
		return ports.CommitComparison{}, err
	}
	defer headCommit.Free()

	cmp := ports.CommitComparison{BaseID: baseCommit.Id().String(), HeadID: headCommit.Id().String()}
	from := baseCommit
	mb, err := repo.MergeBase(baseCommit.Id(), headCommit.Id())
	switch {
	case err == nil:
		cmp.MergeBaseID = mb.String()
		if !direct && !mb.Equal(baseCommit.Id()) {
			if from, err = repo.LookupCommit(mb); err != nil {
				return ports.CommitComparison{}, fmt.Errorf("libgit2: look up merge base: %w", err)
			}
			defer from.Free()
		}
	case git.IsErrorCode(err, git.ErrorCodeNotFound):
		// Unrelated histories: compare with base itself, as Gitea does.
	default:
		return ports.CommitComparison{}, fmt.Errorf("libgit2: merge base: %w", err)
	}

	allowed, err := reachable(repo, headCommit.Id(), baseCommit.Id())
	if err != nil {
		return ports.CommitComparison{}, err
	}
	cmp.TotalCommits = len(allowed)
	w := newCommitWalker(repo, walkFilter{}, allowed)
	defer w.free()
	if len(allowed) > 0 {
		if err := w.push(headCommit.Id()); err != nil {
			return ports.CommitComparison{}, err
		}
	}
	if cmp.Commits, err = appendCommits(ctx, repo, w, nil, 0, maxCompareCommits, extras); err != nil {
		return ports.CommitComparison{}, err
	}
	if cmp.Files, err = changedFilesBetween(repo, from, headCommit); err != nil {
		return ports.CommitComparison{}, err
	}
	return cmp, nil
}

// resolveOid resolves ref to its commit's id.
func resolveOid(repo *git.Repository, ref string) (*git.Oid, error) {
	rev, err := resolve(repo, ref)
	if err != nil {
		return nil, err
	}
	id, err := git.NewOid(rev.CommitID)
	if err != nil {
		return nil, fmt.Errorf("libgit2: commit id %s: %w", rev.CommitID, err)
	}
	return id, nil
}

// appendCommits appends to out the commits w walks, with their extras,
// after skipping the first skip, until out holds limit. It looks for
// cancellation every 256 commits skipped and before each commit it reads.
func appendCommits(ctx context.Context, repo *git.Repository, w *commitWalker, out []ports.CommitDetail, skip, limit int, extras ports.CommitExtras) ([]ports.CommitDetail, error) {
	for i := 0; len(out) < limit; i++ {
		if skip == 0 || i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c, err := w.next()
		if err != nil {
			return nil, err
		}
		if c == nil {
			break
		}
		if skip > 0 {
			skip--
			c.Free()
			continue
		}
		if out, err = appendDetail(repo, out, c, extras); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendDetail appends c, with extras, to out and frees it.
func appendDetail(repo *git.Repository, out []ports.CommitDetail, c *git.Commit, extras ports.CommitExtras) ([]ports.CommitDetail, error) {
	d, err := commitDetail(repo, c, extras)
	c.Free()
	if err != nil {
		return nil, err
	}
	return append(out, d), nil
}

// commitDetail copies c out of libgit2 with the extras asked for.
func commitDetail(repo *git.Repository, c *git.Commit, extras ports.CommitExtras) (ports.CommitDetail, error) {
	d := ports.CommitDetail{GitCommitInfo: commitInfo(c)}
	if extras.Signature {
		sig, signed, err := c.ExtractSignature()
		switch {
		case err == nil:
			d.Signature = &ports.CommitSignature{Signature: sig, Payload: signed}
		case git.IsErrorCode(err, git.ErrorCodeNotFound):
		default:
			return d, fmt.Errorf("libgit2: extract signature of %s: %w", d.ID, err)
		}
	}
	if !extras.Files && !extras.Stats {
		return d, nil
	}
	diff, err := diffWithParent(repo, c, 0)
	if err != nil {
		return d, err
	}
	defer diff.Free()
	if extras.Files {
		if d.Files, err = changedFiles(diff); err != nil {
			return d, err
		}
	}
	if extras.Stats {
		st, err := diffStats(diff)
		if err != nil {
			return d, err
		}
		d.Stats = &st
	}
	return d, nil
}

// reachable returns the commits reachable from start but not from hide.
func reachable(repo *git.Repository, start, hide *git.Oid) (map[git.Oid]struct{}, error) {
	walk, err := repo.Walk()
	if err != nil {
		return nil, fmt.Errorf("libgit2: revwalk: %w", err)
	}
	defer walk.Free()
	walk.Sorting(git.SortNone)
	if err := walk.Push(start); err != nil {
		return nil, fmt.Errorf("libgit2: revwalk push: %w", err)
	}
	if err := walk.Hide(hide); err != nil {
		return nil, fmt.Errorf("libgit2: revwalk hide: %w", err)
	}
	set := map[git.Oid]struct{}{}
	var id git.Oid
	for {
		err := walk.Next(&id)
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			return set, nil
		}
		if err != nil {
			return nil, fmt.Errorf("libgit2: revwalk: %w", err)
		}
		set[id] = struct{}{}
	}
}

// pageCap is the capacity a page of limit commits needs when total (-1:
// not counted) commits match.
func pageCap(limit int, total int64) int {
	if total < 0 {
		return limit
	}
	return min(limit, int(total))
}

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
