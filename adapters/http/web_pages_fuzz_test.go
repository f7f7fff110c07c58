package http

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzSafeRedirectTo: what the sign-in pages keep of a redirect_to never
// leaves the site: it is empty, or the input itself, a path starting with a
// single slash that a URL parser reads without scheme or host.
func FuzzSafeRedirectTo(f *testing.F) {
	for _, s := range []string{"", "/", "/login/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fa", "//evil.example",
		"/\\evil.example", "https://evil.example/", "/%2F%2Fevil", "/a\x00b", "/a\tb", "javascript:alert(1)", "/ok#frag",
		"/" + strings.Repeat("a", 5000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := safeRedirectTo(raw)
		if got == "" {
			return
		}
		if got != raw {
			t.Fatalf("kept %q as %q", raw, got)
		}
		if !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\r\n\t") {
			t.Fatalf("kept %q", got)
		}
		u, err := url.Parse(got)
		if err != nil || u.Host != "" || u.Scheme != "" {
			t.Fatalf("kept %q, which leaves the site", got)
		}
	})
}

// FuzzCSPSource: a redirect URI's CSP source never holds what would end or
// extend the policy.
func FuzzCSPSource(f *testing.F) {
	for _, s := range []string{"https://app.example/cb", "com.example:/cb", "http://h:8080/x?y", "https://a b/", "x;y:/z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if got := cspSource(raw); strings.ContainsAny(got, " \t\r\n;,'\"") {
			t.Fatalf("cspSource(%q) = %q", raw, got)
		}
	})
}
