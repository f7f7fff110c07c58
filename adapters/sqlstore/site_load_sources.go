package sqlstore

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// The sources a restore reads a dumped database from: the JSON lines
// files of a Postgres dump, or an SQLite copy read through the same
// conversions.

// tableSource reads a dumped database's tables.
type tableSource interface {
	// Rows calls fn with each row of table (nil when the dump has no such
	// table), its values in the order of columns.
	Rows(ctx context.Context, table string, fn func(columns []string, row []any) error) (found bool, err error)
}

// jsonlTableSource reads the JSON lines files of a Postgres dump.
type jsonlTableSource struct{ dir string }

func (s jsonlTableSource) Rows(ctx context.Context, table string, fn func([]string, []any) error) (bool, error) {
	f, err := os.Open(filepath.Join(s.dir, table+".jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	return true, ReadTableLines(bufio.NewReaderSize(f, 1<<20), func(h []string, row []any) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(h, row)
	})
}

// ReadTableLines decodes a table's JSON lines (a header, then one array
// per row) and calls fn with each row. A malformed file gives an error
// wrapping errs.ErrBadRequest.
func ReadTableLines(r io.Reader, fn func(columns []string, row []any) error) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var h tableHeader
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("%w: table header: %v", errs.ErrBadRequest, err)
	}
	if len(h.Columns) == 0 {
		return fmt.Errorf("%w: table %q lists no columns", errs.ErrBadRequest, h.Table)
	}
	for line := 2; ; line++ {
		var raw []any
		if err := dec.Decode(&raw); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%w: table %q row %d: %v", errs.ErrBadRequest, h.Table, line, err)
		}
		if len(raw) != len(h.Columns) {
			return fmt.Errorf("%w: table %q row %d has %d values for %d columns", errs.ErrBadRequest, h.Table, line, len(raw), len(h.Columns))
		}
		for i, v := range raw {
			c, err := importCell(v)
			if err != nil {
				return fmt.Errorf("%w: table %q row %d column %q: %v", errs.ErrBadRequest, h.Table, line, h.Columns[i], err)
			}
			raw[i] = c
		}
		if err := fn(h.Columns, raw); err != nil {
			return err
		}
	}
}

// importCell turns a decoded JSON value back into what was exported.
func importCell(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string:
		return x, nil
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, nil
		}
		return x.Float64()
	case map[string]any:
		if s, ok := x["b64"].(string); ok && len(x) == 1 {
			return base64.StdEncoding.DecodeString(s)
		}
		if s, ok := x["time"].(string); ok && len(x) == 1 {
			return time.Parse(time.RFC3339Nano, s)
		}
	}
	return nil, fmt.Errorf("unexpected value %T", v)
}

// sqliteTableSource reads the tables of an SQLite copy.
type sqliteTableSource struct{ db *sql.DB }

func (s sqliteTableSource) Rows(ctx context.Context, table string, fn func([]string, []any) error) (bool, error) {
	t, ok, err := sqliteTable(ctx, s.db, table)
	if err != nil || !ok {
		return false, err
	}
	var buf strings.Builder
	if err := exportTable(ctx, s.db, t, &jsonLineSink{fn: fn, buf: &buf}); err != nil {
		return true, err
	}
	return true, nil
}

// jsonLineSink decodes what exportTable writes, line by line, so that an
// SQLite copy loads through the same conversions as a JSON lines dump.
type jsonLineSink struct {
	fn      func([]string, []any) error
	buf     *strings.Builder
	started bool
	columns []string
}

func (s *jsonLineSink) Write(p []byte) (int, error) {
	s.buf.Write(p)
	text := s.buf.String()
	if !strings.HasSuffix(text, "\n") {
		return len(p), nil
	}
	s.buf.Reset()
	if !s.started {
		s.started = true
		var h tableHeader
		if err := json.Unmarshal([]byte(text), &h); err != nil {
			return 0, err
		}
		s.columns = h.Columns
		return len(p), nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil {
		return 0, err
	}
	for i, v := range raw {
		c, err := importCell(v)
		if err != nil {
			return 0, err
		}
		raw[i] = c
	}
	return len(p), s.fn(s.columns, raw)
}
