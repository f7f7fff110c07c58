package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/depothq/depot/ports"
)

var _ ports.StatementMetrics = (*Registry)(nil)

// statementMetrics are the database's statement timings by kind and table.
// The histograms' children are looked up once per table and kept
// (observers), so that a statement costs a map read and an observation,
// not the label hashing of WithLabelValues.
type statementMetrics struct {
	durations *prometheus.HistogramVec
	errors    *prometheus.CounterVec
	observers sync.Map // table → *[ports.StatementOps]prometheus.Observer
}

func newStatementMetrics() *statementMetrics {
	return &statementMetrics{
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "depot_db_statement_duration_seconds",
			Help:    "Time of the database's statements, by operation (select, insert, update, delete, other) and table (other: none of the schema's).",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"operation", "table"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "depot_db_statement_errors_total",
			Help: "Database statements that failed (finding no row is no failure), by operation and table.",
		}, []string{"operation", "table"}),
	}
}

func (s *statementMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{s.durations, s.errors}
}

// observer is the histogram of op on table.
func (s *statementMetrics) observer(op ports.StatementOp, table string) prometheus.Observer {
	if os, ok := s.observers.Load(table); ok {
		return os.(*[ports.StatementOps]prometheus.Observer)[op]
	}
	var os [ports.StatementOps]prometheus.Observer
	for k := range os {
		os[k] = s.durations.WithLabelValues(ports.StatementOp(k).String(), table)
	}
	got, _ := s.observers.LoadOrStore(table, &os)
	return got.(*[ports.StatementOps]prometheus.Observer)[op]
}

// StatementDone records one statement (ports.StatementMetrics).
func (r *Registry) StatementDone(op ports.StatementOp, table string, took time.Duration, failed bool) {
	if !r.enabled || op >= ports.StatementOps {
		return
	}
	r.statements.observer(op, table).Observe(took.Seconds())
	if failed {
		r.statements.errors.WithLabelValues(op.String(), table).Inc()
	}
}
