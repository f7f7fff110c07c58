package githttp

import (
	"container/list"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/depothq/depot/ports"
)

// CI systems and build farms clone the same repository at the same
// commits over and over, and each clone has git count, delta and compress
// the whole history anew: tens of milliseconds of CPU for a small
// repository, seconds for a large one, the same bytes each time. The pack
// cache keeps git's answer to such a fetch on disk and sends the next
// identical one from the file (sendfile: no git, no copy through this
// process). What makes two requests identical, and why the kept bytes are
// still the right answer, is the key's business (pack_cache_answer.go);
// this file keeps the files. An answer is kept the second time its key is
// asked for, not the first: keeping costs the answer a pass through this
// process (git then writes to a pipe the handler copies to the socket and
// the file, about a tenth more CPU than git writing to the socket itself),
// which a clone asked for once should not pay. The keys asked for once are
// remembered in memory, a bounded number of them. The files are kept within
// a bound of bytes, the least recently
// used dropped first, each dropped too once unused for a while, none kept
// across a restart (a cache, not data: the directory is emptied when the
// server starts, so a crash mid-write leaves nothing to trust).

// packCacheIdle is how long an answer is kept without being used.
const packCacheIdle = time.Hour

// packCacheSeen bounds the keys remembered as asked for once (a key and
// its entry take about 200 bytes).
const packCacheSeen = 8192

// PackCacheConfig says where and how much the pack cache keeps.
type PackCacheConfig struct {
	// Dir holds the answers; it is emptied when the cache opens.
	Dir string
	// MaxBytes bounds the bytes kept; an answer over a quarter of it is not
	// kept. 0 or less turns the cache off.
	MaxBytes int64
	// Idle is how long an answer is kept unused; packCacheIdle when 0.
	Idle time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// PackCache keeps answers to whole-history fetches on disk. A nil
// *PackCache keeps nothing.
type PackCache struct {
	dir           string
	max, maxEntry int64
	idle          time.Duration
	now           func() time.Time
	stats         *ports.CacheStats

	// seen holds the keys asked for once, with no answer kept yet.
	seen *lru.Cache[string, struct{}]

	mu sync.Mutex
	// entries index lru's elements (*packEntry) by key; the front is the
	// most recently used.
	entries map[string]*list.Element
	lru     list.List
	bytes   int64
}

// packEntry is one kept answer, in the file named by its key.
type packEntry struct {
	key  string
	size int64
	used time.Time
}

// NewPackCache opens the cache, emptying its directory; nil (and no error)
// when cfg turns it off. What an earlier run left is moved aside at once
// and removed in the background, so that a large cache does not hold the
// start back.
func NewPackCache(cfg PackCacheConfig) (*PackCache, error) {
	if cfg.MaxBytes <= 0 {
		return nil, nil
	}
	if cfg.Dir == "" {
		return nil, errors.New("githttp: pack cache: no directory")
	}
	if _, err := os.Lstat(cfg.Dir); err == nil {
		old := cfg.Dir + ".old-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		if err := os.Rename(cfg.Dir, old); err != nil {
			return nil, fmt.Errorf("githttp: pack cache: moving the last run's answers aside: %w", err)
		}
		go func() { _ = os.RemoveAll(old) }()
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("githttp: pack cache: %w", err)
	}
	seen, err := lru.New[string, struct{}](packCacheSeen)
	if err != nil {
		return nil, err
	}
	c := &PackCache{dir: cfg.Dir, max: cfg.MaxBytes, maxEntry: cfg.MaxBytes / 4, idle: cfg.Idle, now: cfg.Now,
		seen: seen, entries: map[string]*list.Element{}, stats: ports.NewCacheStats("git_packs", true)}
	if c.idle <= 0 {
		c.idle = packCacheIdle
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// Stats is the cache's counts for the metrics page; nil when it is off.
func (c *PackCache) Stats() *ports.CacheStats {
	if c == nil {
		return nil
	}
	return c.stats
}

// path is the file of key, a hexadecimal digest.
func (c *PackCache) path(key string) string { return filepath.Join(c.dir, key) }

// Open returns the answer kept under key, open for reading, and its size;
// ok is false when there is none. The caller closes the file; the answer
// may be dropped meanwhile, which an open file outlives.
func (c *PackCache) Open(key string) (f *os.File, size int64, ok bool) {
	if c == nil {
		return nil, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.expire(now)
	el, found := c.entries[key]
	if found {
		e := el.Value.(*packEntry)
		var err error
		if f, err = os.Open(c.path(key)); err == nil {
			e.used = now
			c.lru.MoveToFront(el)
			c.stats.Hit()
			return f, e.size, true
		}
		c.drop(el) // removed behind the cache's back
	}
	c.stats.Miss()
	return nil, 0, false
}

// SeenBefore reports whether key was asked for before (and had no answer
// kept), and remembers that it has been now: the answer is worth keeping
// the second time.
func (c *PackCache) SeenBefore(key string) bool {
	if c == nil {
		return false
	}
	if c.seen.Contains(key) {
		c.seen.Remove(key)
		return true
	}
	c.seen.Add(key, struct{}{})
	return false
}

// Fill starts keeping an answer under key: write the answer to it as it is
// sent, then Commit it once git has ended well, or Abort it. nil (which
// keeps nothing) when the cache is off or the file cannot be made.
func (c *PackCache) Fill(key string) *PackFill {
	if c == nil {
		return nil
	}
	f, err := os.CreateTemp(c.dir, "fill-*")
	if err != nil {
		return nil
	}
	return &PackFill{c: c, key: key, f: f}
}

// PackFill is an answer being kept.
type PackFill struct {
	c    *PackCache
	key  string
	f    *os.File
	n    int64
	lost bool
	// still, when set, says at Commit whether the key still names the
	// answer (the refs it was read from have not moved meanwhile).
	still func() bool
}

// Write keeps p. It never fails: an answer that grows past the bound of an
// entry, or that the disk refuses, is given up, and the answer to the
// client goes on.
func (p *PackFill) Write(b []byte) (int, error) {
	if p == nil || p.lost {
		return len(b), nil
	}
	if p.n+int64(len(b)) > p.c.maxEntry {
		p.Abort()
		return len(b), nil
	}
	n, err := p.f.Write(b)
	p.n += int64(n)
	if err != nil {
		p.Abort()
	}
	return len(b), nil
}

// Abort gives the answer up.
func (p *PackFill) Abort() {
	if p == nil || p.lost {
		return
	}
	p.lost = true
	_ = p.f.Close()
	_ = os.Remove(p.f.Name())
}

// Commit keeps the whole answer, dropping the least recently used ones
// past the bound; an answer another request kept meanwhile stays.
func (p *PackFill) Commit() {
	if p == nil || p.lost {
		return
	}
	if p.still != nil && !p.still() {
		p.Abort()
		return
	}
	p.lost = true
	c := p.c
	if err := p.f.Close(); err != nil {
		_ = os.Remove(p.f.Name())
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, found := c.entries[p.key]; found {
		_ = os.Remove(p.f.Name())
		return
	}
	if err := os.Rename(p.f.Name(), c.path(p.key)); err != nil {
		_ = os.Remove(p.f.Name())
		return
	}
	now := c.now()
	c.entries[p.key] = c.lru.PushFront(&packEntry{key: p.key, size: p.n, used: now})
	c.bytes += p.n
	evicted := 0
	for c.bytes > c.max {
		c.drop(c.lru.Back())
		evicted++
	}
	c.stats.Evicted(evicted)
	c.expire(now)
}

// expire drops the answers unused for longer than idle. c.mu is held.
func (c *PackCache) expire(now time.Time) {
	for el := c.lru.Back(); el != nil && now.Sub(el.Value.(*packEntry).used) > c.idle; el = c.lru.Back() {
		c.drop(el)
	}
	c.stats.SetEntries(len(c.entries))
}

// drop removes one answer. c.mu is held.
func (c *PackCache) drop(el *list.Element) {
	e := el.Value.(*packEntry)
	c.lru.Remove(el)
	delete(c.entries, e.key)
	c.bytes -= e.size
	_ = os.Remove(c.path(e.key))
	c.stats.SetEntries(len(c.entries))
}

// Bytes is what the kept answers weigh.
func (c *PackCache) Bytes() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
