package release_test

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/release"
)

// FuzzParseExternalURL: any input is an http(s) address with a host and a
// non-empty name, or a bad request; never a panic.
func FuzzParseExternalURL(f *testing.F) {
	for _, s := range []string{"https://example.org/a.zip", "http://example.org", "ftp://x", "http://[::1", "http://a:b@c/",
		"https://example.org:99999999999999999999/x", "/a/b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := release.ParseExternalURL(raw)
		if err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("ParseExternalURL(%q): %v is no invalid input", raw, err)
			}
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Fatalf("ParseExternalURL(%q) accepted %q", raw, u)
		}
		if release.ExternalAssetName(u) == "" {
			t.Fatalf("ParseExternalURL(%q): no name", raw)
		}
	})
}
