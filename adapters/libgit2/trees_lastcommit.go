package libgit2

import (
	"container/heap"
	"context"
	"fmt"
	"path"
	"sync"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// lastCommitCacheSize bounds how many (commit, path) answers are kept: each
// costs a few hundred bytes (the commit's metadata is shared by the paths
// it last changed).
const lastCommitCacheSize = 100_000

// lastCommitCache remembers the last commit that changed a path as seen
// from a commit. A commit id fixes its whole history, so the answer never
// changes and is the same in every repository (forks share it): the key
// needs no repository. It is asked only about a start commit looked up in
// the repository being read (and the ancestors a walk from it reaches), so
// it never answers for a commit that repository does not hold. Two
// generations of maps make a cheap bounded cache: when the young one is
// full it becomes the old one, and a hit in the old one is promoted. Its
// zero value is ready.
type lastCommitCache struct {
	mu         sync.Mutex
	young, old map[string]*ports.GitCommitInfo
	// stats counts the lookups, for the metrics page (nil: nowhere).
	stats *ports.CacheStats
}

func lastCommitKey(commitID, p string) string { return commitID + "\x00" + p }

func (c *lastCommitCache) get(commitID, p string) *ports.GitCommitInfo {
	k := lastCommitKey(commitID, p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.young[k]; ok {
		c.stats.Hit()
		return v
	}
	if v, ok := c.old[k]; ok {
		c.putLocked(k, v)
		c.stats.Hit()
		return v
	}
	c.stats.Miss()
	return nil
}

func (c *lastCommitCache) put(commitID, p string, v *ports.GitCommitInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(lastCommitKey(commitID, p), v)
}

func (c *lastCommitCache) putLocked(k string, v *ports.GitCommitInfo) {
	if c.young == nil || len(c.young) >= lastCommitCacheSize/2 {
		c.stats.Evicted(len(c.old))
		c.old, c.young = c.young, make(map[string]*ports.GitCommitInfo)
	}
	c.young[k] = v
	c.stats.SetEntries(len(c.young) + len(c.old))
}

// fillLastCommits sets the last commit that changed res's listed entries,
// or its entry when nothing was listed.
func (s *Storage) fillLastCommits(ctx context.Context, repo *git.Repository, start *git.Commit, res *ports.GitPathResult) error {
	targets := res.Entries
	if targets == nil {
		if res.Entry.Path == "" {
			// The root itself: the commit read is the last to change it.
			info := commitInfo(start)
			res.Entry.LastCommit = &info
			return nil
		}
		targets = []ports.GitEntry{res.Entry}
	}
	if len(targets) == 0 {
		return nil
	}
	dir := path.Dir(targets[0].Path)
	if dir == "." {
		dir = ""
	}
	names := make([]string, len(targets))
	for i, e := range targets {
		names[i] = e.Name
	}
	found, err := s.lastCommits(ctx, repo, start, dir, names)
	if err != nil {
		return err
	}
	for i := range targets {
		targets[i].LastCommit = found[targets[i].Name]
	}
	if res.Entries == nil {
		res.Entry = targets[0]
	}
	return nil
}

// lastCommits finds, for each name of the directory dir at start, the last
// commit that changed it, as `git log -1 -- dir/name` does: from a commit,
// history follows the first parent whose entry is the same (a merge that
// took the entry from one side is not a change), and the first commit whose
// entry differs from every parent's (or that has no parent) is the answer.
// Names share one walk; a merge may split them over its parents.
func (s *Storage) lastCommits(ctx context.Context, repo *git.Repository, start *git.Commit, dir string, names []string) (map[string]*ports.GitCommitInfo, error) {
	startID := start.Id().String()
	found := make(map[string]*ports.GitCommitInfo, len(names))
	var todo []string
	for _, n := range names {
		if info := s.reads.memo.get(startID, path.Join(dir, n)); info != nil {
			found[n] = info
		} else {
			todo = append(todo, n)
		}
	}
	if len(todo) == 0 {
		return found, nil
	}
	w := &lastCommitWalk{repo: repo, dir: dir, memo: &s.reads.memo,
		commits: map[string]*walkCommit{}, infos: map[string]*ports.GitCommitInfo{}}
	if err := w.run(ctx, start.Id(), todo, found); err != nil {
		return nil, err
	}
	for _, n := range todo {
		if info := found[n]; info != nil {
			s.reads.memo.put(startID, path.Join(dir, n), info)
		}
	}
	return found, nil
}

// walkCommit is what the walk needs of one commit.
type walkCommit struct {
	id      *git.Oid
	when    int64
	parents []*git.Oid
	// dirTree is the id of the walked directory's tree, nil when absent.
	dirTree *git.Oid
	// names are the entries still looking for their last change, queued here.
	names  map[string]bool
	queued bool
	index  int
}

// lastCommitWalk is one walk of lastCommits over one repository.
type lastCommitWalk struct {
	repo *git.Repository
	dir  string
	// memo holds answers of earlier walks: one reaching a commit seen
	// before (the previous tip of a branch) stops there.
	memo    *lastCommitCache
	commits map[string]*walkCommit
	infos   map[string]*ports.GitCommitInfo
	queue   walkQueue
}

// commit loads (once) what the walk needs of the commit id.
func (w *lastCommitWalk) commit(id *git.Oid) (*walkCommit, error) {
	key := id.String()
	if c, ok := w.commits[key]; ok {
		return c, nil
	}
	gc, err := w.repo.LookupCommit(id)
	if err != nil {
		return nil, fmt.Errorf("libgit2: read commit %s: %w", key, err)
	}
	defer gc.Free()
	c := &walkCommit{id: gc.Id(), when: gc.Committer().When.Unix()}
	for i := uint(0); i < gc.ParentCount(); i++ {
		c.parents = append(c.parents, gc.ParentId(i))
	}
	if w.dir == "" {
		c.dirTree = gc.TreeId()
	} else {
		root, err := gc.Tree()
		if err != nil {
			return nil, fmt.Errorf("libgit2: read tree of %s: %w", key, err)
		}
		defer root.Free()
		if e, err := root.EntryByPath(w.dir); err == nil && e.Type == git.ObjectTree {
			c.dirTree = e.Id
		}
	}
	w.commits[key] = c
	return c, nil
}

// info returns the metadata of the commit id, loaded once.
func (w *lastCommitWalk) info(id *git.Oid) (*ports.GitCommitInfo, error) {
	key := id.String()
	if info, ok := w.infos[key]; ok {
		return info, nil
	}
	gc, err := w.repo.LookupCommit(id)
	if err != nil {
		return nil, fmt.Errorf("libgit2: read commit %s: %w", key, err)
	}
	defer gc.Free()
	info := commitInfo(gc)
	w.infos[key] = &info
	return &info, nil
}

// entryKey is what makes two versions of an entry the same.
type entryKey struct {
	id   git.Oid
	mode git.Filemode
}

// entries returns the entries of names in the directory tree id (absent
// names are left out; a nil id is an absent directory).
func (w *lastCommitWalk) entries(tree *git.Oid, names map[string]bool) (map[string]entryKey, error) {
	out := make(map[string]entryKey, len(names))
	if tree == nil {
		return out, nil
	}
	t, err := w.repo.LookupTree(tree)
	if err != nil {
		return nil, fmt.Errorf("libgit2: read tree %s: %w", tree, err)
	}
	defer t.Free()
	for n := range names {
		if e := t.EntryByName(n); e != nil {
			out[n] = entryKey{id: *e.Id, mode: e.Filemode}
		}
	}
	return out, nil
}

// enqueue adds names to the commit id's queued work.
func (w *lastCommitWalk) enqueue(id *git.Oid, names map[string]bool) error {
	c, err := w.commit(id)
	if err != nil {
		return err
	}
	if c.names == nil {
		c.names = map[string]bool{}
	}
	for n := range names {
		c.names[n] = true
	}
	if !c.queued {
		c.queued = true
		heap.Push(&w.queue, c)
	}
	return nil
}

// run walks from start until every name has its answer in found.
func (w *lastCommitWalk) run(ctx context.Context, start *git.Oid, todo []string, found map[string]*ports.GitCommitInfo) error {
	names := make(map[string]bool, len(todo))
	for _, n := range todo {
		names[n] = true
	}
	if err := w.enqueue(start, names); err != nil {
		return err
	}
	for w.queue.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := heap.Pop(&w.queue).(*walkCommit)
		c.queued = false
		pending := c.names
		c.names = nil
		cid := c.id.String()
		for n := range pending {
			if found[n] != nil {
				delete(pending, n)
			} else if info := w.memo.get(cid, path.Join(w.dir, n)); info != nil {
				found[n] = info
				delete(pending, n)
			}
		}
		if len(pending) == 0 {
			continue
		}
		if err := w.step(c, pending, found); err != nil {
			return err
		}
	}
	return nil
}

// step decides, for the pending names at c, which parent to follow or that
// c is their answer.
func (w *lastCommitWalk) step(c *walkCommit, pending map[string]bool, found map[string]*ports.GitCommitInfo) error {
	resolveHere := func(ns map[string]bool) error {
		info, err := w.info(c.id)
		if err != nil {
			return err
		}
		for n := range ns {
			found[n] = info
		}
		return nil
	}
	if len(c.parents) == 0 {
		return resolveHere(pending)
	}
	// Each name follows the first parent where its entry is the same; when
	// the whole directory is the same tree there (the usual case), that is
	// every name left, without comparing entries.
	var mine map[string]entryKey
	left := pending
	for _, pid := range c.parents {
		if len(left) == 0 {
			return nil
		}
		p, err := w.commit(pid)
		if err != nil {
			return err
		}
		if equalOid(p.dirTree, c.dirTree) {
			return w.enqueue(pid, left)
		}
		if mine == nil {
			if mine, err = w.entries(c.dirTree, pending); err != nil {
				return err
			}
		}
		theirs, err := w.entries(p.dirTree, left)
		if err != nil {
			return err
		}
		same, next := map[string]bool{}, map[string]bool{}
		for n := range left {
			if e, ok := theirs[n]; ok && e == mine[n] {
				same[n] = true
			} else {
				next[n] = true
			}
		}
		if len(same) > 0 {
			if err := w.enqueue(pid, same); err != nil {
				return err
			}
		}
		left = next
	}
	if len(left) > 0 {
		return resolveHere(left)
	}
	return nil
}

func equalOid(a, b *git.Oid) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b)
}

// walkQueue orders queued commits newest first, so that paths reaching one
// commit through several merges meet there before it is processed.
type walkQueue []*walkCommit

func (q walkQueue) Len() int           { return len(q) }
func (q walkQueue) Less(i, j int) bool { return q[i].when > q[j].when }
func (q walkQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *walkQueue) Push(x any) {
	c := x.(*walkCommit)
	c.index = len(*q)
	*q = append(*q, c)
}
func (q *walkQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
