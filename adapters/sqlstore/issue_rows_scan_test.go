package sqlstore

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestScannedColumnsCoverRows keeps the column lists of the rows scanned
// by hand (scanIssueRows, scanCommentRows, scanUserRows) in step with their
// models: a column added to a model must be read there too, in its place.
func TestScannedColumnsCoverRows(t *testing.T) {
	for _, tc := range []struct {
		model   any
		alias   string
		columns []string
	}{
		{issueRow{}, "issues.", issueListColumns},
		{commentRow{}, "c.", commentColumns},
		{userRow{}, "u.", userColumns},
	} {
		typ := reflect.TypeOf(tc.model)
		var cols []string
		for i := range typ.NumField() {
			tag := typ.Field(i).Tag.Get("bun")
			if typ.Field(i).Anonymous || strings.HasPrefix(tag, "table:") {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			cols = append(cols, name)
		}
		if len(cols) != len(tc.columns) {
			t.Fatalf("%s has %d columns, the scan reads %d: %v vs %v", typ.Name(), len(cols), len(tc.columns), cols, tc.columns)
		}
		for k, c := range cols {
			want := tc.alias + c
			if got := tc.columns[k]; got != want && got != "CAST("+want+" AS TEXT)" {
				t.Errorf("%s column %d: the model has %s, the scan reads %s", typ.Name(), k, c, got)
			}
		}
	}
}

func TestParseDBTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"0001-01-01 00:00:00 +0000 UTC", time.Time{}},
		{"2026-01-01 00:00:00 +0000 UTC", utc(2026, 1, 1, 0, 0, 0, 0)},
		{"2026-01-01 10:20:30.123456 +0000 UTC", utc(2026, 1, 1, 10, 20, 30, 123456000)},
		{"2026-01-01 10:20:30.123456789 +0200 CEST", utc(2026, 1, 1, 8, 20, 30, 123456789)},
		{"2026-01-01 10:20:30.5-07:00", utc(2026, 1, 1, 17, 20, 30, 500000000)},
		{"2026-01-01 10:20:30+00:00", utc(2026, 1, 1, 10, 20, 30, 0)},
		{"2026-01-01T10:20:30Z", utc(2026, 1, 1, 10, 20, 30, 0)},
		{"2026-01-01 10:20:30", utc(2026, 1, 1, 10, 20, 30, 0)},
		// The slow path: the driver's other layouts.
		{"2026-01-01 10:20", utc(2026, 1, 1, 10, 20, 0, 0)},
		{"2026-01-01", utc(2026, 1, 1, 0, 0, 0, 0)},
		{"2026-01-01 10:20:30.123 +0000 UTC m=+0.000000001", utc(2026, 1, 1, 10, 20, 30, 123000000)},
	} {
		got, err := parseDBTime([]byte(tc.in))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) || got.Location() != time.UTC || got.IsZero() != tc.want.IsZero() {
			t.Errorf("%q: got %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"yesterday", "2026-02-31 00:00:00", "2026-13-01 00:00:00 +0000 UTC"} {
		if _, err := parseDBTime([]byte(bad)); err == nil {
			t.Errorf("%q: read as a time", bad)
		}
	}
}
