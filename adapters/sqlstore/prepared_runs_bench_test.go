package sqlstore_test

import (
	"testing"

	"github.com/depothq/depot/adapters/metrics"
)

// BenchmarkPreparedStatementTimed is a user lookup by id, a statement the
// store prepares itself, with the statement metrics off and on (the
// metrics page's registry): the difference is what timing a prepared
// statement's run costs.
func BenchmarkPreparedStatementTimed(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			d, ids, _ := benchDBHandle(b)
			if on {
				r, err := metrics.New(metrics.Options{Enabled: true})
				if err != nil {
					b.Fatal(err)
				}
				d.ObserveStatements(b.Context(), r)
			}
			users := d.Stores().Users
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := users.GetByID(b.Context(), ids[i%len(ids)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
