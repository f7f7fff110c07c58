package commitstatus

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// FuzzReport fuzzes the commit status a client reports: refused with a 422
// naming one of its fields, or normalised to a report that validates to
// itself and holds only safe text and an http(s) link.
func FuzzReport(f *testing.F) {
	f.Add("success", "https://ci.example.com/1", "build ok", "ci/build")
	f.Add(" pending ", "", "", "")
	f.Add("failure", "javascript:alert(1)", "x\x1b[31m", "ctx")
	f.Add("warning", "http://h/\x00", strings.Repeat("d", 1025), strings.Repeat("c", 256))
	f.Add("", "ftp://x", "\xff", "\n")
	f.Fuzz(func(t *testing.T, state, target, desc, context string) {
		r, err := Report{State: state, TargetURL: target, Description: desc, Context: context}.Validate()
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || len(e.Fields) != 1 ||
				!slices.Contains([]string{"State", "TargetURL", "Description", "Context"}, e.Fields[0]) {
				t.Fatalf("error %v (%T) is not a 422 on a report field", err, err)
			}
			return
		}
		if !State(r.State).Valid() || r.Context == "" {
			t.Fatalf("report %+v", r)
		}
		if lower := strings.ToLower(r.TargetURL); lower != "" && !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
			t.Fatalf("link %q kept", r.TargetURL)
		}
		for _, s := range []string{r.TargetURL, r.Description, r.Context} {
			if !utf8.ValidString(s) || hasControl(s) || s != strings.TrimSpace(s) {
				t.Fatalf("text %q kept", s)
			}
		}
		again, err := r.Validate()
		if err != nil || again != r {
			t.Fatalf("report %+v validates to %+v, %v", r, again, err)
		}
	})
}

func FuzzStatusFilters(f *testing.F) {
	for _, s := range []string{"oldest", "recentupdate", "leastindex", "", "SUCCESS", "pending", "bogus"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = ParseSort(s)
		if st := ParseStateFilter(s); st != "" && !st.Valid() {
			t.Fatalf("ParseStateFilter(%q) = %q", s, st)
		}
	})
}
