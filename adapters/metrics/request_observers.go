package metrics

import (
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// maxRouteSeries bounds the series one route keeps.
const maxRouteSeries = 32

// routeSeries is one series of the request histogram of a route.
type routeSeries struct {
	method string
	status int
	obs    prometheus.Observer
}

// routeRequests records one route's requests (ports.RouteMetrics). It keeps
// the route's series by method and status in a list that is replaced,
// never changed, so that a request finds its series with no lock, no hash
// and no allocation (WithLabelValues would build the label values and hash
// them). The list is as long as the statuses the route answers; past
// maxRouteSeries (a registry's method is the client's word) a series is
// looked up each time instead of kept.
type routeRequests struct {
	requests *prometheus.HistogramVec
	inFlight prometheus.Gauge
	route    string
	// mu serialises additions to series.
	mu     sync.Mutex
	series atomic.Pointer[[]routeSeries]
}

func (q *routeRequests) Started() time.Time {
	q.inFlight.Inc()
	return time.Now()
}

func (q *routeRequests) Done(start time.Time, method string, status int) {
	q.inFlight.Dec()
	q.observer(method, status).Observe(time.Since(start).Seconds())
}

// observer is the series of method and status.
func (q *routeRequests) observer(method string, status int) prometheus.Observer {
	if obs, ok := q.kept(method, status); ok {
		return obs
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if obs, ok := q.kept(method, status); ok {
		return obs
	}
	obs := q.requests.WithLabelValues(q.route, method, strconv.Itoa(status))
	var series []routeSeries
	if s := q.series.Load(); s != nil {
		series = *s
	}
	if len(series) < maxRouteSeries {
		series = append(slices.Clip(series), routeSeries{method: method, status: status, obs: obs})
		q.series.Store(&series)
	}
	return obs
}

// kept finds the series of method and status in the list.
func (q *routeRequests) kept(method string, status int) (prometheus.Observer, bool) {
	if s := q.series.Load(); s != nil {
		for _, e := range *s {
			if e.status == status && e.method == method {
				return e.obs, true
			}
		}
	}
	return nil, false
}

// routeOff records nothing, for metrics off.
type routeOff struct{}

func (routeOff) Started() time.Time          { return time.Time{} }
func (routeOff) Done(time.Time, string, int) {}
