package token

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

func FuzzParseScopes(f *testing.F) {
	f.Add("read:user,write:repository", "public-only")
	f.Add("all", "read:admin")
	f.Add(" write:issue , ,read:issue", "")
	f.Add("read:nothing", "write:")
	f.Add("", "")
	f.Add("write:activitypub,write:admin,write:misc,write:notification,write:organization,write:package,write:issue,write:repository", "write:user")
	f.Fuzz(func(t *testing.T, a, b string) {
		s, err := ParseScopes([]string{a, b})
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"Scopes"}) {
				t.Fatalf("error %v (%T) is not a 422 on Scopes", err, err)
			}
			return
		}
		if len(s) == 0 {
			t.Fatal("a token without scopes was accepted")
		}
		// The normal form reads back as itself, as a list and as the
		// comma-joined string Gitea stores.
		again, err := ParseScopes(s.Strings())
		if err != nil || !slices.Equal(again, s) {
			t.Fatalf("scopes %q read back as %q, %v", s, again, err)
		}
		joined, err := ParseScopes([]string{s.String()})
		if err != nil || !slices.Equal(joined, s) {
			t.Fatalf("scopes %q joined read back as %q, %v", s.String(), joined, err)
		}
		// Every category's level is what the input granted at most, and
		// the normal form grants the same.
		for _, c := range AllCategories() {
			raw := Scopes{Scope(a), Scope(b)}
			var pieces Scopes
			for _, entry := range raw {
				for _, p := range strings.Split(string(entry), ",") {
					pieces = append(pieces, Scope(p))
				}
			}
			if s.Level(c) != pieces.Level(c) {
				t.Fatalf("category %s: normal form %q grants %d, input %q grants %d", c, s, s.Level(c), pieces, pieces.Level(c))
			}
		}
		if s.PublicOnly() != (strings.Contains(a, "public-only") || strings.Contains(b, "public-only")) {
			t.Fatalf("public-only lost or invented: %q from %q, %q", s, a, b)
		}
		for _, write := range []bool{false, true} {
			if err := s.Require(write, CategoryRepository); err != nil && !errors.Is(err, errs.ErrForbidden) {
				t.Fatalf("Require answered %v", err)
			}
		}
	})
}
