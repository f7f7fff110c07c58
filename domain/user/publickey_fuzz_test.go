package user

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzNormalizeKeyTitle(f *testing.F) {
	for _, s := range []string{"laptop", "  padded ", "", "\t", strings.Repeat("ü", MaxKeyTitleLength+1), "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		got, err := NormalizeKeyTitle("Title", title)
		if err != nil {
			invalidOn(t, err, "Title")
			return
		}
		if got == "" || got != strings.TrimSpace(got) || utf8.RuneCountInString(got) > MaxKeyTitleLength {
			t.Fatalf("NormalizeKeyTitle(%q) = %q", title, got)
		}
		if again, err := NormalizeKeyTitle("Title", got); err != nil || again != got {
			t.Fatalf("not idempotent on %q: %q, %v", got, again, err)
		}
	})
}
