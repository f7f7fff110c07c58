package packages

import (
	"bytes"
	"sync"
)

// manifestCacheEntry is the largest manifest whose bytes are kept in
// memory, and manifestCacheBytes what all of them may hold together.
const (
	manifestCacheEntry = 64 << 10
	manifestCacheBytes = 16 << 20
)

// manifestCache keeps the bytes of recently pulled manifests by their
// SHA-256. The key is the content's own digest, so an entry is never
// stale: a tag pushed again names another blob, and which manifest a tag
// or digest names is read from the database on every pull (after access
// was checked for the owner and image), so nothing here is reached but
// through a row the caller may read. Past manifestCacheBytes, entries are
// dropped in the map's (random) order until the new one fits.
type manifestCache struct {
	mu    sync.RWMutex
	bytes int
	byKey map[string][]byte
}

func newManifestCache() *manifestCache {
	return &manifestCache{byKey: map[string][]byte{}}
}

func (c *manifestCache) get(sum string) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	raw, ok := c.byKey[sum]
	return raw, ok
}

func (c *manifestCache) put(sum string, raw []byte) {
	if len(raw) > manifestCacheEntry {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[sum]; ok {
		return
	}
	for k, v := range c.byKey {
		if c.bytes+len(raw) <= manifestCacheBytes {
			break
		}
		delete(c.byKey, k)
		c.bytes -= len(v)
	}
	c.byKey[sum] = raw
	c.bytes += len(raw)
}

// nopSeekCloser is cached bytes as an opened blob.
type nopSeekCloser struct{ *bytes.Reader }

func (nopSeekCloser) Close() error { return nil }
