package content

import (
	"sync"

	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/ports"
)

// releasePageBudget bounds the bytes the release page cache holds (about:
// each page counts its texts and a fixed share per release and asset);
// past it the cache starts over.
const releasePageBudget = 16 << 20

// releasePageMaxKeyword is the longest search text whose pages are kept;
// longer searches are read each time.
const releasePageMaxKeyword = 64

// releasePageCache keeps pages of each repository's release list with
// their assets and total, under the repository's releases version
// (repository.ReleasesVersion), which the database moves in every
// transaction that writes a release or an asset. A request that read the
// repository at version v is answered from a page read at v or later, so
// no answer is older than the repository it resolved. Pages read at an
// older version than the one kept are not stored, and a newer version
// drops the repository's older pages. Publishers are not kept: they are
// read with each answer, as accounts change on their own.
//
// Kept releases and assets are shared by every answer built from them and
// must not be modified.
type releasePageCache struct {
	mu    sync.Mutex
	repos map[int64]*repoReleasePages
	bytes int
	// pages counts the pages kept; stats counts the lookups, for the
	// metrics page.
	pages int
	stats *ports.CacheStats
}

type repoReleasePages struct {
	version int64
	pages   map[releasePageKey]*releasePage
}

// releasePageKey is one listing of one repository: its filter as the
// store reads it and its page.
type releasePageKey struct {
	drafts            bool
	draft, prerelease int8 // 0 unset, 1 false, 2 true
	keyword           string
	page, limit       int
}

type releasePage struct {
	list   []*release.Release
	assets map[int64][]*release.Asset
	total  int64
}

func newReleasePageKey(f release.Filter, opts ports.ListOptions) (releasePageKey, bool) {
	kw := f.NormalisedKeyword()
	if len(kw) > releasePageMaxKeyword {
		return releasePageKey{}, false
	}
	tri := func(b *bool) int8 {
		switch {
		case b == nil:
			return 0
		case *b:
			return 2
		}
		return 1
	}
	return releasePageKey{drafts: f.IncludeDrafts, draft: tri(f.Draft), prerelease: tri(f.Prerelease),
		keyword: kw, page: opts.Page, limit: opts.Limit}, true
}

// get returns the page of repoID kept at version, if any.
func (c *releasePageCache) get(repoID, version int64, k releasePageKey) (*releasePage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rp := c.repos[repoID]
	if rp == nil || rp.version != version {
		c.stats.Miss()
		return nil, false
	}
	p, ok := rp.pages[k]
	c.stats.Lookup(ok)
	return p, ok
}

// put keeps p, read at version, unless the repository's pages are newer.
func (c *releasePageCache) put(repoID, version int64, k releasePageKey, p *releasePage) {
	size := p.size()
	if size > releasePageBudget/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.repos == nil || c.bytes+size > releasePageBudget {
		c.stats.Evicted(c.pages)
		c.repos, c.bytes, c.pages = map[int64]*repoReleasePages{}, 0, 0
	}
	rp := c.repos[repoID]
	switch {
	case rp == nil || rp.version < version:
		if rp != nil {
			c.pages -= len(rp.pages)
		}
		rp = &repoReleasePages{version: version, pages: map[releasePageKey]*releasePage{}}
		c.repos[repoID] = rp
	case rp.version > version:
		return
	}
	if _, ok := rp.pages[k]; !ok {
		rp.pages[k] = p
		c.bytes += size
		c.pages++
	}
	c.stats.SetEntries(c.pages)
}

// size estimates the memory p holds.
func (p *releasePage) size() int {
	n := 64
	for _, r := range p.list {
		n += 256 + len(r.TagName) + len(r.Target) + len(r.Title) + len(r.Note) + len(r.Sha1)
	}
	for _, list := range p.assets {
		for _, a := range list {
			n += 192 + len(a.Name) + len(a.UUID) + len(a.ExternalURL) + len(a.SHA256)
		}
	}
	return n
}
