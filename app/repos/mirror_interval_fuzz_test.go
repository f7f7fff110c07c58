package repos

import (
	"errors"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// FuzzParseMirrorInterval fuzzes a pull mirror's interval: refused with a
// 422 on the field whose message is valid text, or 0 (off) or at least the
// minimum, and its own spelling reads back the same.
func FuzzParseMirrorInterval(f *testing.F) {
	for _, s := range []string{"8h", "10m", "9m59s", "0", " 1h30m ", "-1h", "1e3h", "", "ééééééééééééééééééééééééééééééééééééé", "9999999999h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseMirrorInterval("MirrorInterval", s)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"MirrorInterval"}) {
				t.Fatalf("error %v (%T) is not a 422 on MirrorInterval", err, err)
			}
			if utf8.ValidString(s) && !utf8.ValidString(e.Msg) {
				t.Fatalf("message %q cuts the input's characters", e.Msg)
			}
			return
		}
		if d < 0 || (d != 0 && d < MinMirrorInterval) {
			t.Fatalf("interval %v accepted from %q", d, s)
		}
		if again, err := ParseMirrorInterval("MirrorInterval", d.String()); err != nil || again != d {
			t.Fatalf("%v reads back as %v, %v", d, again, err)
		}
	})
}
