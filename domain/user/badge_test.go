package user

import (
	"strings"
	"testing"
)

func TestValidateBadgeSlug(t *testing.T) {
	for _, c := range []struct {
		slug string
		ok   bool
	}{
		{"early-adopter", true}, {"v1.0_beta", true}, {"A", true},
		{"", false}, {"-lead", false}, {".hidden", false}, {"has space", false}, {"a/b", false},
		{"é", false}, {strings.Repeat("a", MaxBadgeSlugLength), true}, {strings.Repeat("a", MaxBadgeSlugLength+1), false},
	} {
		if err := ValidateBadgeSlug(c.slug); (err == nil) != c.ok {
			t.Errorf("ValidateBadgeSlug(%q) = %v, want ok=%v", c.slug, err, c.ok)
		}
	}
}
