package hook

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// escapeGlob writes s as a pattern that matches s only.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteByte('\\')
		b.WriteRune(r)
	}
	return b.String()
}

func FuzzGlob(f *testing.F) {
	for _, s := range [][3]string{
		{"main", "main", "x"}, {"release/*", "release/1.0", "-"}, {"{main,dev}", "dev", "/"},
		{"feature-[a-z]?", "feature-x1", "a"}, {"[!0-9]*", "x9", ""}, {"{a,{b,c{d,e}}}", "ce", "b"},
		{"\\*", "*", "\\"}, {"[z-a]", "q", "["}, {"{a,b", "a", "{"}, {"a\\", "a", "é"}, {"[]", "", "]"},
		{"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "ab", "**"}, {"{{{{{{{{{a}}}}}}}}}", "a", "\xff"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, pattern, s, affix string) {
		g, err := CompileGlob(pattern)
		verr := ValidateBranchFilter(pattern)
		if (err == nil || pattern == "") != (verr == nil) {
			t.Fatalf("CompileGlob(%q) = %v but ValidateBranchFilter = %v", pattern, err, verr)
		}
		if verr != nil {
			var e *errs.Error
			if !errors.As(verr, &e) || !errors.Is(verr, errs.ErrInvalid) || len(e.Fields) != 1 || e.Fields[0] != "BranchFilter" {
				t.Fatalf("ValidateBranchFilter(%q) = %v, not a 422 on BranchFilter", pattern, verr)
			}
		}
		if err == nil && pattern != "" && pattern != "*" && MatchBranch(pattern, s) != g.Match(s) {
			t.Fatalf("MatchBranch(%q, %q) disagrees with the compiled glob", pattern, s)
		}

		// An escaped string matches itself and nothing longer.
		lit, err := CompileGlob(escapeGlob(s))
		if err != nil {
			t.Fatalf("escaped %q does not compile: %v", s, err)
		}
		if !lit.Match(s) {
			t.Fatalf("escaped %q does not match itself", s)
		}
		if affix != "" && lit.Match(s+affix) {
			t.Fatalf("escaped %q matches %q", s, s+affix)
		}
		if !utf8.ValidString(s) || !utf8.ValidString(affix) {
			return // joined, invalid bytes could form other characters
		}
		// Stars around it match it anywhere; "?" stands for one character.
		around, err := CompileGlob("*" + escapeGlob(s) + "*")
		if err != nil || !around.Match(affix+s+affix) {
			t.Fatalf("*%q* does not match %q (%v)", s, affix+s+affix, err)
		}
		if n := len([]rune(s)); n > 0 {
			any, err := CompileGlob(strings.Repeat("?", n))
			if err != nil || !any.Match(s) || any.Match(s+"x") {
				t.Fatalf("%d question marks mismatch %q (%v)", n, s, err)
			}
		}
		// Alternatives: the escaped string is one of them.
		alts, err := CompileGlob("{" + escapeGlob(affix) + "," + escapeGlob(s) + "}")
		if err != nil || !alts.Match(s) || !alts.Match(affix) {
			t.Fatalf("{%q,%q} does not match both (%v)", affix, s, err)
		}
	})
}
