package libgit2

import (
	"container/list"
	"sync"

	git "github.com/libgit2/git2go/v34"
)

// countCacheSize bounds the commit counts kept in memory.
const countCacheSize = 512

// countKey identifies one listing's count: commits never change, so the
// count of what a commit reaches under a filter never does either.
type countKey struct {
	dir                string
	start, not         git.Oid
	path               string
	since, until       int64
	hasSince, hasUntil bool
}

// countCache is a small LRU of commit counts. Its zero value is ready to use.
type countCache struct {
	mu    sync.Mutex
	order *list.List // of countEntry, most recent first
	index map[countKey]*list.Element
}

type countEntry struct {
	key   countKey
	total int64
}

// get returns a cached count and marks it recently used.
func (c *countCache) get(k countKey) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[k]
	if !ok {
		return 0, false
	}
	c.order.MoveToFront(el)
	return el.Value.(countEntry).total, true
}

// put stores a count, dropping the least recently used beyond the bound.
func (c *countCache) put(k countKey, total int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == nil {
		c.index = map[countKey]*list.Element{}
		c.order = list.New()
	}
	if el, ok := c.index[k]; ok {
		el.Value = countEntry{key: k, total: total}
		c.order.MoveToFront(el)
		return
	}
	c.index[k] = c.order.PushFront(countEntry{key: k, total: total})
	for c.order.Len() > countCacheSize {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.index, last.Value.(countEntry).key)
	}
}

// recentPlain returns the most recently used unfiltered count of the
// repository in dir whose start is not exclude, so that a new tip can be
// counted from an older one.
func (c *countCache) recentPlain(dir string, exclude git.Oid) (git.Oid, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order == nil {
		return git.Oid{}, 0, false
	}
	for el := c.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(countEntry)
		k := e.key
		if k.dir == dir && k.not.IsZero() && k.path == "" && !k.hasSince && !k.hasUntil && k.start != exclude {
			return k.start, e.total, true
		}
	}
	return git.Oid{}, 0, false
}
