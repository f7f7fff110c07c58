package sqlstore

import (
	"bytes"
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzReadTableLines feeds arbitrary bytes to the reader of a dump's
// JSON lines tables: rows come out with as many values as the header has
// columns, anything else is refused as a bad request, never a panic.
func FuzzReadTableLines(f *testing.F) {
	f.Add([]byte(`{"table":"users","columns":["id","name","created","avatar"]}` + "\n" +
		`[1,"wren",{"time":"2026-11-29T09:00:00Z"},{"b64":"AAE="}]` + "\n"))
	f.Add([]byte(`{"table":"t","columns":["a"]}` + "\n" + `[1,2]` + "\n"))
	f.Add([]byte(`{"table":"t","columns":["a"]}` + "\n" + `[{"x":1}]` + "\n"))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := ReadTableLines(bytes.NewReader(data), func(columns []string, row []any) error {
			if len(columns) != len(row) {
				t.Fatalf("%d values for %d columns", len(row), len(columns))
			}
			return nil
		})
		if err != nil && !errors.Is(err, errs.ErrBadRequest) {
			t.Fatalf("uncategorised error %v", err)
		}
	})
}
