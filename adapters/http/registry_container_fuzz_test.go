package http

import (
	"strings"
	"testing"

	"github.com/depothq/depot/domain/packages"
)

// FuzzContainerPath feeds the registry's path parser, and the name,
// reference and digest checks it leads to, arbitrary paths: none panics,
// and what they accept is safe to store and to echo in a Location.
func FuzzContainerPath(f *testing.F) {
	for _, s := range []string{"/v2/", "/v2/token", "/v2/alice/app/blobs/uploads/", "/v2/alice/a/b/blobs/uploads/1-ab",
		"/v2/alice/app/manifests/latest", "/v2/alice/app/manifests/sha256:" + strings.Repeat("a", 64),
		"/v2/alice/app/tags/list", "/v2/alice/app/referrers/sha256:00", "/v2/a/%2F/blobs/x", "/v2//x/blobs/y",
		"/v2/alice/blobs/blobs/uploads", "/v2/alice/app/manifests/%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		p, ok := parseContainerPath(path)
		if !ok || p.kind == containerBase || p.kind == containerToken {
			return
		}
		if p.owner == "" || p.image == "" {
			t.Fatalf("%q: empty owner or image accepted", path)
		}
		if packages.ValidImageName(p.image) {
			for _, r := range p.image {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/", r)) {
					t.Fatalf("image %q accepted with %q", p.image, r)
				}
			}
			if strings.Contains(p.image, "//") || strings.HasPrefix(p.image, "/") || strings.Contains(p.image, "..") {
				t.Fatalf("image %q accepted", p.image)
			}
		}
		if ref, ok := packages.ParseReference(p.arg); ok {
			if (ref.Tag == "") == (ref.Digest == "") {
				t.Fatalf("reference %q is both or neither", p.arg)
			}
			if strings.ContainsAny(p.arg, "/?#% \x00") {
				t.Fatalf("reference %q accepted", p.arg)
			}
		}
		if packages.ValidDigest(p.arg) && len(p.arg) != len("sha256:")+64 {
			t.Fatalf("digest %q accepted", p.arg)
		}
	})
}

// FuzzContentRange feeds the chunk Content-Range parser arbitrary headers:
// what it accepts is a range starting at 0 or later with a positive length.
func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"0-0", "0-1023", "1024-2047", "bytes 0-9/10", "5-1", "-1-3", "a-b", "", "0-9223372036854775807", "+1-+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start, length, ok := packages.ParseContentRange(s)
		if ok && (start < 0 || length <= 0) {
			t.Fatalf("%q: start %d length %d accepted", s, start, length)
		}
	})
}
