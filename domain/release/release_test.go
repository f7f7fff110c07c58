package release_test

import (
	"testing"

	"github.com/depothq/depot/domain/release"
)

func TestReleaseVisibleTo(t *testing.T) {
	for _, tc := range []struct {
		name          string
		draft, writer bool
		want          bool
	}{
		{"published to a reader", false, false, true},
		{"published to a writer", false, true, true},
		{"draft to a reader", true, false, false},
		{"draft to a writer", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &release.Release{IsDraft: tc.draft}
			if got := r.VisibleTo(tc.writer); got != tc.want {
				t.Fatalf("VisibleTo(%v) of a draft=%v release: %v, want %v", tc.writer, tc.draft, got, tc.want)
			}
		})
	}
}

func TestReleaseFilterKeyword(t *testing.T) {
	for in, want := range map[string]string{"": "", "  ": "", " V1.0-RC ": "v1.0-rc", "Ünïcode": "ünïcode"} {
		if got := (release.Filter{Keyword: in}).NormalisedKeyword(); got != want {
			t.Fatalf("NormalisedKeyword(%q) = %q, want %q", in, got, want)
		}
	}
}
