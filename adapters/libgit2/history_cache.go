package libgit2

import (
	"container/list"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
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
	// loaded lists the directories whose persisted counts were read.
	loaded map[string]bool
	// stats counts the lookups, for the metrics page (nil: nowhere).
	stats *ports.CacheStats
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
	c.stats.Lookup(ok)
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
		c.stats.Evicted(1)
	}
	c.stats.SetEntries(c.order.Len())
}

// recentPlain returns the most recently used unfiltered count of the
// repository in dir whose start is not exclude, so that a new tip can be
// counted from an older one.
func (c *countCache) recentPlain(dir string, exclude git.Oid) (git.Oid, int64, bool) {
	return c.recent(dir, "", exclude)
}

// recent returns the most recently used count of the repository in dir
// filtered by path alone ("" for none) whose start is not exclude.
func (c *countCache) recent(dir, path string, exclude git.Oid) (git.Oid, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order == nil {
		return git.Oid{}, 0, false
	}
	for el := c.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(countEntry)
		k := e.key
		if k.dir == dir && k.not.IsZero() && k.path == path && !k.hasSince && !k.hasUntil && k.start != exclude {
			return k.start, e.total, true
		}
	}
	return git.Oid{}, 0, false
}

// recentPaths returns up to n distinct paths of the path-filtered counts of
// the repository in dir, most recently used first.
func (c *countCache) recentPaths(dir string, n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order == nil {
		return nil
	}
	var out []string
	for el := c.order.Front(); el != nil && len(out) < n; el = el.Next() {
		k := el.Value.(countEntry).key
		if k.dir == dir && k.path != "" && k.not.IsZero() && !k.hasSince && !k.hasUntil && !slices.Contains(out, k.path) {
			out = append(out, k.path)
		}
	}
	return out
}

// countsFile is where a repository keeps its unfiltered commit counts by
// tip, so that the first listing after a restart does not walk the whole
// history again. It sits in the bare repository, which git leaves alone.
const countsFile = "depot-commit-counts"

// countsFileKeep is how many counts a rewrite of the file keeps; it is
// rewritten when it grows past four times that.
const countsFileKeep = 64

// countLineSize is the typical length of a line of the counts file.
const countLineSize = 40 + 1 + 7 + 1

// loadPlain puts the counts persisted in dir into the cache, once per
// directory and process. A damaged line is skipped: the count is then
// computed again.
func (c *countCache) loadPlain(dir string) {
	c.mu.Lock()
	if c.loaded == nil {
		c.loaded = map[string]bool{}
	}
	if c.loaded[dir] {
		c.mu.Unlock()
		return
	}
	c.loaded[dir] = true
	c.mu.Unlock()
	for _, e := range readCounts(dir) {
		c.putIfAbsent(countKey{dir: dir, start: e.id}, e.total)
	}
}

// loadPaths puts the path-filtered counts persisted in dir into the cache,
// once per directory and process.
func (c *countCache) loadPaths(dir string) {
	c.mu.Lock()
	if c.loaded == nil {
		c.loaded = map[string]bool{}
	}
	marker := dir + "\x00" + pathCountsFile
	if c.loaded[marker] {
		c.mu.Unlock()
		return
	}
	c.loaded[marker] = true
	c.mu.Unlock()
	for _, e := range readPathCounts(dir) {
		c.putIfAbsent(countKey{dir: dir, start: e.id, path: e.path}, e.total)
	}
}

// putIfAbsent caches a count unless one is there (it must not refresh an
// entry's recency: persisted counts are older than what is in memory).
func (c *countCache) putIfAbsent(k countKey, total int64) {
	if _, ok := c.get(k); ok {
		return
	}
	c.put(k, total)
}

// persistPlain appends an unfiltered count to dir's file, and rewrites the
// file with the newest counts when it has grown too long. Failing to
// persist costs only speed after a restart, so errors are ignored.
func persistPlain(dir string, id git.Oid, total int64) {
	appendCapped(filepath.Join(dir, countsFile), plainCountLine(id, total), countsFileKeep, countLineSize, func() []string {
		entries := readCounts(dir)
		lines := make([]string, len(entries))
		for i, e := range entries {
			lines[i] = plainCountLine(e.id, e.total)
		}
		return lines
	})
}

func plainCountLine(id git.Oid, total int64) string {
	return fmt.Sprintf("%s %d\n", id.String(), total)
}

// appendCapped appends line to the file at path and, once the file holds
// about four times keep lines of lineSize bytes, rewrites it (through a
// temporary file and a rename) with the newest keep of the lines read
// returns, oldest first. The count files are caches: errors are ignored.
func appendCapped(path, line string, keep, lineSize int, read func() []string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	_, werr := f.WriteString(line)
	info, serr := f.Stat()
	_ = f.Close()
	if werr != nil || serr != nil || info.Size() < int64(keep*4*lineSize) {
		return
	}
	lines := read()
	if len(lines) > keep {
		lines = lines[len(lines)-keep:]
	}
	tmp := path + ".tmp"
	if os.WriteFile(tmp, []byte(strings.Join(lines, "")), 0o644) == nil {
		_ = os.Rename(tmp, path)
	}
}

type persistedCount struct {
	id    git.Oid
	total int64
}

// readCounts parses dir's counts file, oldest first; later lines win.
func readCounts(dir string) []persistedCount {
	data, err := os.ReadFile(filepath.Join(dir, countsFile))
	if err != nil {
		return nil
	}
	var out []persistedCount
	for line := range strings.SplitSeq(string(data), "\n") {
		hexID, num, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		id, err := git.NewOid(hexID)
		if err != nil {
			continue
		}
		total, err := strconv.ParseInt(num, 10, 64)
		if err != nil || total <= 0 {
			continue
		}
		out = append(out, persistedCount{id: *id, total: total})
	}
	return out
}

// pathCountsFile is where a repository keeps its counts filtered by a path
// alone, by (tip, path): such a count walks every commit and reads trees,
// seconds on a large history, so it must survive a restart too.
const pathCountsFile = "depot-path-counts"

// pathCountsFileKeep is how many path counts a rewrite of the file keeps;
// it is rewritten when it grows past four times that many lines.
const pathCountsFileKeep = 256

// pathCountLineSize is the typical length of a line of the path counts file.
const pathCountLineSize = countLineSize + 24

// persistPath appends a path-filtered count to dir's file, and rewrites it
// with the newest counts when it has grown too long. As for persistPlain,
// errors only cost speed after a restart and are ignored.
func persistPath(dir string, id git.Oid, path string, total int64) {
	appendCapped(filepath.Join(dir, pathCountsFile), pathCountLine(id, path, total), pathCountsFileKeep, pathCountLineSize,
		func() []string {
			entries := readPathCounts(dir)
			lines := make([]string, len(entries))
			for i, e := range entries {
				lines[i] = pathCountLine(e.id, e.path, e.total)
			}
			return lines
		})
}

func pathCountLine(id git.Oid, path string, total int64) string {
	return fmt.Sprintf("%s %d %s\n", id.String(), total, strconv.Quote(path))
}

type persistedPathCount struct {
	id    git.Oid
	path  string
	total int64
}

// readPathCounts parses dir's path counts file, oldest first; a damaged
// line is skipped.
func readPathCounts(dir string) []persistedPathCount {
	data, err := os.ReadFile(filepath.Join(dir, pathCountsFile))
	if err != nil {
		return nil
	}
	var out []persistedPathCount
	for line := range strings.SplitSeq(string(data), "\n") {
		hexID, rest, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		num, quoted, ok := strings.Cut(rest, " ")
		if !ok {
			continue
		}
		id, err := git.NewOid(hexID)
		if err != nil {
			continue
		}
		total, err := strconv.ParseInt(num, 10, 64)
		if err != nil || total < 0 {
			continue
		}
		path, err := strconv.Unquote(quoted)
		if err != nil || path == "" {
			continue
		}
		out = append(out, persistedPathCount{id: *id, path: path, total: total})
	}
	return out
}
