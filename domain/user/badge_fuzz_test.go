package user

import (
	"strings"
	"testing"
)

func FuzzValidateBadgeSlug(f *testing.F) {
	for _, s := range []string{"early-adopter", "", "-x", "a b", "é", "v1.0_beta"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, slug string) {
		if ValidateBadgeSlug(slug) != nil {
			return
		}
		// An accepted slug is non-empty, bounded, and plain ASCII without
		// separators a path or a query would split on.
		if slug == "" || len(slug) > MaxBadgeSlugLength || strings.ContainsAny(slug, " /?#%\x00") {
			t.Fatalf("accepted %q", slug)
		}
	})
}
