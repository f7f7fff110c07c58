package libgit2

import (
	"fmt"
	"sync"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// Blobs are named by the hash of their bytes, so what was read once under
// an id is what every repository holds under it: sizes and small blobs are
// kept in memory, sparing the object-database reads (a handful of file
// system calls each for loose objects) of hot files and of directory
// listings, which need every entry's size. The cache does not say which
// repositories hold an id: a caller looks it up only for an id it found in
// the repository it reads (a tree entry), or after checking that the
// repository has the object (readBlob), never for an id a client named.
const (
	// blobCacheItemMax is the largest blob whose bytes are kept.
	blobCacheItemMax = 64 << 10
	// blobCacheBytes bounds the bytes kept (plus a small overhead per id).
	blobCacheBytes = 64 << 20
	// blobCacheOverhead is what one entry is counted for besides its bytes.
	blobCacheOverhead = 64
)

// blobCache maps blob ids to their size and, for small blobs, bytes. Two
// generations bounded by bytes make it a cheap approximate LRU: when the
// young one is full it becomes the old one, and a hit in the old one is
// promoted. Its zero value is ready. The bytes it hands out are shared and
// must not be modified.
type blobCache struct {
	mu         sync.Mutex
	young, old map[git.Oid]cachedBlob
	youngBytes int
	// stats counts the lookups, for the metrics page (nil: nowhere).
	stats *ports.CacheStats
}

type cachedBlob struct {
	size int64
	// data is nil when only the size is known.
	data []byte
}

func (c *blobCache) get(id *git.Oid) (cachedBlob, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.young[*id]; ok {
		c.stats.Hit()
		return b, true
	}
	if b, ok := c.old[*id]; ok {
		c.putLocked(id, b)
		c.stats.Hit()
		return b, true
	}
	c.stats.Miss()
	return cachedBlob{}, false
}

func (c *blobCache) put(id *git.Oid, b cachedBlob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(id, b)
}

func (c *blobCache) putLocked(id *git.Oid, b cachedBlob) {
	cost := len(b.data) + blobCacheOverhead
	if c.young == nil || c.youngBytes+cost > blobCacheBytes/2 {
		c.stats.Evicted(len(c.old))
		c.old, c.young, c.youngBytes = c.young, make(map[git.Oid]cachedBlob), 0
	}
	if prev, ok := c.young[*id]; ok {
		c.youngBytes -= len(prev.data) + blobCacheOverhead
	}
	c.young[*id] = b
	c.youngBytes += cost
	c.stats.SetEntries(len(c.young) + len(c.old))
}

// blobData returns the size of blob id and, when wantData and it is at most
// maxData bytes, its bytes (shared: not to be modified), from the cache or
// from odb.
func (c *blobCache) blobData(odb *git.Odb, id *git.Oid, wantData bool, maxData int64) (int64, []byte, error) {
	cached, ok := c.get(id)
	if ok {
		if !wantData || cached.size > maxData {
			return cached.size, nil, nil
		}
		if cached.data != nil {
			return cached.size, cached.data, nil
		}
	}
	size := cached.size
	if !ok {
		n, kind, err := odb.ReadHeader(id)
		if err != nil {
			return 0, nil, fmt.Errorf("libgit2: read header of %s: %w", id, err)
		}
		if kind != git.ObjectBlob {
			return 0, nil, fmt.Errorf("libgit2: %s is a %s, not a blob", id, kind)
		}
		size = int64(n)
		if !wantData || size > maxData || size > blobCacheItemMax {
			c.put(id, cachedBlob{size: size})
		}
		if !wantData || size > maxData {
			return size, nil, nil
		}
	}
	obj, err := odb.Read(id)
	if err != nil {
		return 0, nil, fmt.Errorf("libgit2: read blob %s: %w", id, err)
	}
	data := make([]byte, size)
	copy(data, obj.Data())
	obj.Free()
	if size <= blobCacheItemMax {
		c.put(id, cachedBlob{size: size, data: data})
	}
	return size, data, nil
}
