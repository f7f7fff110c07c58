package protection_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/gobwas/glob"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

// FuzzParseTagPattern checks that any pattern either compiles or is a 422
// naming name_pattern, never a panic, that the choice between a regular
// expression and a glob follows the slashes, and that a quoted literal glob
// matches the literal.
func FuzzParseTagPattern(f *testing.F) {
	for _, s := range [][2]string{
		{"v*", "v1"}, {"/v[0-9]+/", "v10"}, {"//", ""}, {"/", "/"}, {"/^a$/", "a"}, {"release/*", "release/x"},
		{"{a,b", "a"}, {"[z-a]", "q"}, {"/(/", "("}, {"v\\", "v"}, {"{{{{{{a}}}}}}", "a"}, {"[!]", "x"},
		{"**/x", "a/x"}, {"/\\x{110000}/", "x"}, {"\xff*", "\xff"}, {"", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, tag string) {
		p, err := protection.ParseTagPattern(pattern)
		if err != nil {
			var e *errs.Error
			if !errors.Is(err, errs.ErrInvalid) || !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0] != "name_pattern" {
				t.Fatalf("ParseTagPattern(%q) = %v, not a 422 naming name_pattern", pattern, err)
			}
			return
		}
		regex := len(pattern) >= 2 && strings.HasPrefix(pattern, "/") && strings.HasSuffix(pattern, "/")
		if p.IsRegexp() != regex {
			t.Fatalf("ParseTagPattern(%q).IsRegexp() = %v", pattern, p.IsRegexp())
		}
		got := p.Match(tag)
		if regex {
			if want := regexp.MustCompile(pattern[1 : len(pattern)-1]).MatchString(tag); got != want {
				t.Fatalf("%q matching %q: %v, regexp says %v", pattern, tag, got, want)
			}
		}
		if len(tag) > 0 && len(tag) <= protection.MaxTagPatternLength/2 {
			q, err := protection.ParseTagPattern(glob.QuoteMeta(tag))
			if err != nil {
				return // a quoted tag between slashes is a regular expression, which may not compile
			}
			if !q.IsRegexp() && !q.Match(tag) {
				t.Fatalf("the quoted glob of %q does not match it", tag)
			}
		}
	})
}
