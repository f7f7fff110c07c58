package libgit2

import (
	"context"
	"fmt"
	"sync"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// analyses holds what the analysis routes computed, by commit id (a commit's
// tree never changes, so neither does anything derived from it), and the
// licence classifier, loaded on first use. Its zero value is ready.
type analyses struct {
	languages commitCache[map[string]int64]
	licenses  commitCache[[]string]
	classifier
}

// commitCacheSize bounds each cache: the oldest entry goes first.
const commitCacheSize = 512

// commitCache is a bounded map from commit id to a computed value.
type commitCache[V any] struct {
	mu    sync.Mutex
	items map[string]V
	order []string
}

// get returns the value computed for commit id, if any.
func (c *commitCache[V]) get(id string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[id]
	return v, ok
}

// put keeps v for commit id unless a value is already there, dropping the
// oldest entry when the cache is full.
func (c *commitCache[V]) put(id string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]V{}
	}
	if _, ok := c.items[id]; ok {
		return
	}
	if len(c.order) >= commitCacheSize {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[id] = v
	c.order = append(c.order, id)
}

// cachedByCommit opens p, resolves ref and answers cache's value for the
// commit, computing it from the commit's tree on a miss and keeping it. The
// cache is shared by every repository: it is read only once ref resolved
// in p, so it never answers for a commit p does not hold.
// What it returns is a clone, so that callers cannot change the cached
// value.
func cachedByCommit[V any](ctx context.Context, s *Storage, p ports.RepoPath, ref string, cache *commitCache[V],
	clone func(V) V, compute func(repo *git.Repository, tree *git.Tree, odb *git.Odb) (V, error)) (V, error) {
	var out V
	err := s.withRevision(ctx, p, ref, func(repo *git.Repository, rev ports.GitRevision) error {
		if v, ok := cache.get(rev.CommitID); ok {
			out = clone(v)
			return nil
		}
		tree, err := commitTree(repo, rev.CommitID)
		if err != nil {
			return err
		}
		defer tree.Free()
		odb, err := repo.Odb()
		if err != nil {
			return fmt.Errorf("libgit2: open object database: %w", err)
		}
		defer odb.Free()
		v, err := compute(repo, tree, odb)
		if err != nil {
			return err
		}
		cache.put(rev.CommitID, v)
		out = clone(v)
		return nil
	})
	if err != nil {
		var zero V
		return zero, err
	}
	return out, nil
}

// commitTree returns the root tree of commit id; the caller frees it.
func commitTree(repo *git.Repository, id string) (*git.Tree, error) {
	c, err := lookupCommit(repo, id)
	if err != nil {
		return nil, err
	}
	defer c.Free()
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: read tree of %s: %w", id, err)
	}
	return tree, nil
}
