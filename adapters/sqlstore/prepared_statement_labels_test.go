package sqlstore_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestPreparedStatementsLabelled prepares every statement the stores
// prepare themselves, which bun's query hook does not see: each is timed
// on the metrics page under a kind (select, insert, update, delete) and
// one of the schema's tables, never "other".
func TestPreparedStatementsLabelled(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			tables, err := d.SchemaTables(t.Context())
			is.NoErr(err)
			prepared, err := d.PrepareEveryStatement(t.Context())
			is.NoErr(err)
			min := 4 // the hot reads
			if b.name == "sqlite" {
				min = 40
			}
			is.True(len(prepared) >= min) // every statement was prepared
			for _, p := range prepared {
				if p.Op == ports.StatementOther || tables[p.Table] == "" {
					t.Errorf("%s/%s: %s", p.Op, p.Table, p.Text)
				}
			}
		})
	}
}
