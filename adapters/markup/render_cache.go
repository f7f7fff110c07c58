package markup

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"maps"
	"slices"
	"sync"

	"github.com/depothq/depot/ports"
)

// A rendering is a pure function of the document's text, its options and
// what its resolver answered. The cache keeps each rendering with the
// questions the renderer asked and the answers it got; a later render of
// the same document asks the same questions again (one query for the
// mentions, a lookup per commit id) and reuses the HTML only when every
// answer is the same, so an account created, hidden or renamed since, or a
// reader who may see fewer accounts, gets a fresh rendering.
//
// The key holds the repository's URL (owner and name) and the site's, so
// a document never answers for another repository.

// Bounds of the rendering cache: its total size, and the largest rendering
// it keeps (larger ones are rare and cost the space of many small ones).
const (
	renderCacheBytes    = 4 << 20
	renderCacheMaxEntry = 256 << 10
)

// renderKey is the hash of a document and its options.
type renderKey [sha256.Size]byte

// keyOf hashes everything of doc that its rendering depends on, besides
// its resolver's answers.
func keyOf(doc ports.MarkupDocument) renderKey {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	flags := []byte{byte(doc.Format), 0, 0, 0, 0, 0, 0}
	for i, on := range []bool{doc.Wiki, doc.Mentions, doc.FullIssueRefs, doc.ShortIssueRefs, doc.CommitRefs, doc.Resolve != nil} {
		if on {
			flags[i+1] = 1
		}
	}
	field(flags)
	var limit [8]byte
	binary.LittleEndian.PutUint64(limit[:], uint64(doc.MaxOutput))
	field(limit[:])
	field([]byte(doc.AppURL))
	field([]byte(doc.RepoURL))
	field([]byte(doc.RefPath))
	field([]byte(doc.TreePath))
	field(doc.Text)
	var k renderKey
	h.Sum(k[:0])
	return k
}

// rendering is a cached answer: the sanitised HTML and the lookups that
// decided it (nil when the renderer asked none).
type rendering struct {
	key      renderKey
	html     []byte
	names    []string
	known    map[string]bool
	commitQ  []string
	commitsA map[string]string
}

func (r *rendering) size() int { return len(r.html) + 64*(len(r.names)+len(r.commitQ)) + 256 }

// renderCache is a least-recently-used set of renderings bounded by size.
type renderCache struct {
	mu      sync.Mutex
	entries map[renderKey]*list.Element
	order   *list.List // front: most recently used
	bytes   int
	// stats counts the lookups, for the metrics page.
	stats *ports.CacheStats
}

func newRenderCache() *renderCache {
	return &renderCache{entries: map[renderKey]*list.Element{}, order: list.New(),
		stats: ports.NewCacheStats("markup_renderings", true)}
}

// get returns the rendering cached under k.
func (c *renderCache) get(k renderKey) *rendering {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	c.stats.Lookup(ok)
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*rendering)
}

// put keeps r, dropping the least recently used renderings past the bound.
func (c *renderCache) put(r *rendering) {
	if r.size() > renderCacheMaxEntry {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[r.key]; ok {
		c.bytes -= e.Value.(*rendering).size()
		c.order.Remove(e)
	}
	c.entries[r.key] = c.order.PushFront(r)
	c.bytes += r.size()
	for c.bytes > renderCacheBytes {
		last := c.order.Back()
		old := last.Value.(*rendering)
		c.order.Remove(last)
		delete(c.entries, old.key)
		c.bytes -= old.size()
		c.stats.Evicted(1)
	}
	c.stats.SetEntries(len(c.entries))
}

// recordingResolver passes the renderer's questions on and keeps them with
// their answers for the cache.
type recordingResolver struct {
	next ports.MarkupResolver
	r    *rendering
}

func (rr recordingResolver) Mentionable(ctx context.Context, names []string) (map[string]bool, error) {
	known, err := rr.next.Mentionable(ctx, names)
	if err == nil {
		rr.r.names, rr.r.known = slices.Clone(names), maps.Clone(known)
	}
	return known, err
}

func (rr recordingResolver) Commits(ctx context.Context, ids []string) (map[string]string, error) {
	found, err := rr.next.Commits(ctx, ids)
	if err == nil {
		rr.r.commitQ, rr.r.commitsA = slices.Clone(ids), maps.Clone(found)
	}
	return found, err
}

// stillValid asks the cached rendering's questions again and reports
// whether every answer is the one it was rendered with.
func (r *rendering) stillValid(ctx context.Context, resolve ports.MarkupResolver) (bool, error) {
	if r.names != nil {
		known, err := resolve.Mentionable(ctx, r.names)
		if err != nil || !maps.Equal(known, r.known) {
			return false, err
		}
	}
	if r.commitQ != nil {
		found, err := resolve.Commits(ctx, r.commitQ)
		if err != nil || !maps.Equal(found, r.commitsA) {
			return false, err
		}
	}
	return true, nil
}
