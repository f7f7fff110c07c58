package release_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/release"
)

func TestParseExternalURL(t *testing.T) {
	for raw, name := range map[string]string{
		"https://example.org/dl/tool-1.0.zip":   "tool-1.0.zip",
		"http://example.org":                    "example.org",
		"http://example.org/":                   "example.org",
		"https://example.org:8443/a/b/?x=1#top": "b",
		"https://[::1]:80/file.tar.gz":          "file.tar.gz",
	} {
		t.Run(raw, func(t *testing.T) {
			is := is.New(t)
			u, err := release.ParseExternalURL(raw)
			is.NoErr(err)
			is.Equal(release.ExternalAssetName(u), name)
		})
	}
	long := "https://example.org/" + string(make([]byte, release.MaxExternalURLBytes))
	for _, raw := range []string{"", "   ", "example.org/a.zip", "/local/path", "ftp://example.org/a", "javascript:alert(1)",
		"mailto:me@example.org", "file:///etc/passwd", "http://", "https://example.org:port/a", "https://example.org:/a",
		"https://user:pass@example.org/a", "xhttp://example.org", "http://exa mple.org/", long} {
		t.Run(raw, func(t *testing.T) {
			_, err := release.ParseExternalURL(raw)
			if !errors.Is(err, errs.ErrInvalid) || strings.Contains(err.Error(), "pass") {
				t.Fatalf("ParseExternalURL(%.40q) = %v, want invalid input that does not repeat it", raw, err)
			}
		})
	}
}
