package metrics

import (
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// maxKeptObservers bounds the series requestObservers keeps.
const maxKeptObservers = 4096

// requestKey names one series of the request histogram.
type requestKey struct {
	route, method string
	status        int
}

// requestObservers keeps the request histogram's series by route, method
// and status, so that a request observes its duration without building the
// label values and hashing them (three allocations and a hash a request).
// The series are as many as the route table's rows times the statuses they
// answer; past maxKeptObservers (a registry's method is the client's word)
// a series is looked up each time instead of kept.
type requestObservers struct {
	vec *prometheus.HistogramVec
	mu  sync.RWMutex
	m   map[requestKey]prometheus.Observer
}

func (o *requestObservers) get(route, method string, status int) prometheus.Observer {
	k := requestKey{route, method, status}
	o.mu.RLock()
	obs, ok := o.m[k]
	o.mu.RUnlock()
	if ok {
		return obs
	}
	obs = o.vec.WithLabelValues(route, method, strconv.Itoa(status))
	o.mu.Lock()
	if o.m == nil {
		o.m = map[requestKey]prometheus.Observer{}
	}
	if len(o.m) < maxKeptObservers {
		o.m[k] = obs
	}
	o.mu.Unlock()
	return obs
}
