package ports

import "sync/atomic"

// CacheStats counts what one in-process cache answers, for the metrics
// page: the cache counts its hits, misses and evictions and keeps its size
// here (a few atomic additions), and the page reads them at each scrape, so
// that no cache knows of the page. Make one with NewCacheStats; a nil
// *CacheStats counts nothing.
type CacheStats struct {
	name string
	// bounded says the cache has a bound, so evictions and size mean
	// something.
	bounded                 bool
	hits, misses, evictions atomic.Uint64
	entries                 atomic.Int64
}

// NewCacheStats counts the cache called name (a constant: it is a label on
// the metrics page); bounded says it evicts past a bound.
func NewCacheStats(name string, bounded bool) *CacheStats {
	return &CacheStats{name: name, bounded: bounded}
}

// Hit counts an answer found in the cache.
func (s *CacheStats) Hit() {
	if s != nil {
		s.hits.Add(1)
	}
}

// Miss counts an answer the cache did not have (or had expired).
func (s *CacheStats) Miss() {
	if s != nil {
		s.misses.Add(1)
	}
}

// Lookup counts a hit when hit, else a miss.
func (s *CacheStats) Lookup(hit bool) {
	if hit {
		s.Hit()
	} else {
		s.Miss()
	}
}

// Evicted counts n entries dropped to stay within the bound (not those
// dropped because what they hold changed).
func (s *CacheStats) Evicted(n int) {
	if s != nil && n > 0 {
		s.evictions.Add(uint64(n))
	}
}

// SetEntries records how many entries the cache holds now.
func (s *CacheStats) SetEntries(n int) {
	if s != nil {
		s.entries.Store(int64(n))
	}
}

// CacheCounts is what a CacheStats has counted so far.
type CacheCounts struct {
	Name                    string
	Bounded                 bool
	Hits, Misses, Evictions uint64
	Entries                 int64
}

// Counts reads what s has counted.
func (s *CacheStats) Counts() CacheCounts {
	return CacheCounts{Name: s.name, Bounded: s.bounded, Hits: s.hits.Load(), Misses: s.misses.Load(),
		Evictions: s.evictions.Load(), Entries: s.entries.Load()}
}
