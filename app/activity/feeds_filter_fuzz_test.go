package activity

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// FuzzParseFilter checks that any date and only-performed-by either parse
// or are refused as a bad request, never anything else.
func FuzzParseFilter(f *testing.F) {
	for _, s := range [][2]string{{"2024-05-17", "true"}, {"", ""}, {"yesterday", "maybe"}, {"2024-13-40", "1"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, date, only string) {
		_, err := ParseFilter(date, only, ports.ListOptions{Page: 1, Limit: 10})
		if err != nil && !errors.Is(err, errs.ErrBadRequest) {
			t.Fatalf("ParseFilter(%q, %q): %v is not a bad request", date, only, err)
		}
	})
}
