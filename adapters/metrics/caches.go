package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/depothq/depot/ports"
)

// cacheCollector reads the in-process caches' counts (ports.CacheStats) at
// each scrape: the caches count with atomic additions and know nothing of
// the page.
type cacheCollector struct {
	mu     sync.Mutex
	caches []*ports.CacheStats
}

// ObservedCaches says which caches the metrics page reads; wire makes
// one so that the caches are handed over before serving.
type ObservedCaches struct{ Count int }

// ObserveCaches has the metrics page read these caches' counts from now on
// (nil ones are skipped); with metrics off it does nothing.
func (r *Registry) ObserveCaches(caches ...*ports.CacheStats) ObservedCaches {
	if !r.enabled {
		return ObservedCaches{}
	}
	r.caches.mu.Lock()
	defer r.caches.mu.Unlock()
	for _, c := range caches {
		if c != nil {
			r.caches.caches = append(r.caches.caches, c)
		}
	}
	return ObservedCaches{Count: len(r.caches.caches)}
}

var (
	cacheRequestsDesc = prometheus.NewDesc("depot_cache_requests_total",
		"Lookups in the in-process caches, by cache and result (hit, miss); the hit ratio is hit over both.",
		[]string{"cache", "result"}, nil)
	cacheEvictionsDesc = prometheus.NewDesc("depot_cache_evictions_total",
		"Entries the bounded caches dropped to stay within their bound, by cache.", []string{"cache"}, nil)
	cacheEntriesDesc = prometheus.NewDesc("depot_cache_entries",
		"Entries the bounded caches hold now, by cache.", []string{"cache"}, nil)
)

func (c *cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- cacheRequestsDesc
	ch <- cacheEvictionsDesc
	ch <- cacheEntriesDesc
}

func (c *cacheCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	caches := c.caches
	c.mu.Unlock()
	for _, s := range caches {
		n := s.Counts()
		ch <- prometheus.MustNewConstMetric(cacheRequestsDesc, prometheus.CounterValue, float64(n.Hits), n.Name, "hit")
		ch <- prometheus.MustNewConstMetric(cacheRequestsDesc, prometheus.CounterValue, float64(n.Misses), n.Name, "miss")
		if n.Bounded {
			ch <- prometheus.MustNewConstMetric(cacheEvictionsDesc, prometheus.CounterValue, float64(n.Evictions), n.Name)
			ch <- prometheus.MustNewConstMetric(cacheEntriesDesc, prometheus.GaugeValue, float64(n.Entries), n.Name)
		}
	}
}
