package packages

import (
	"strings"
	"testing"
)

func TestContainerNames(t *testing.T) {
	for _, c := range []struct {
		image string
		ok    bool
	}{
		{"app", true}, {"te/st", true}, {"my-app.v2_x", true}, {"a/b/c", true},
		{"", false}, {"App", false}, {"a//b", false}, {"/a", false}, {"a/", false}, {"a..b", false},
		{"-a", false}, {"a-", false}, {"a b", false}, {"ü", false},
	} {
		if got := ValidImageName(c.image); got != c.ok {
			t.Errorf("ValidImageName(%q) = %v, want %v", c.image, got, c.ok)
		}
	}
	for _, c := range []struct {
		tag string
		ok  bool
	}{
		{"latest", true}, {"v1.0.0-rc.1", true}, {"_x", true}, {".x", false}, {"-x", false}, {"", false},
		{strings.Repeat("a", 128), true}, {strings.Repeat("a", 129), false}, {"a:b", false}, {"a/b", false},
	} {
		if got := ValidTag(c.tag); got != c.ok {
			t.Errorf("ValidTag(%q) = %v, want %v", c.tag, got, c.ok)
		}
	}
	d := "sha256:" + strings.Repeat("ab", 32)
	if r, ok := ParseReference(d); !ok || r.Digest != d {
		t.Errorf("ParseReference(%q) = %+v, %v", d, r, ok)
	}
	if r, ok := ParseReference("latest"); !ok || r.Tag != "latest" {
		t.Errorf("ParseReference(latest) = %+v, %v", r, ok)
	}
	for _, bad := range []string{"sha256:" + strings.Repeat("A", 64), "sha512:" + strings.Repeat("a", 64), "sha256:abc"} {
		if ValidDigest(bad) {
			t.Errorf("ValidDigest(%q) accepted", bad)
		}
	}
}

func TestContentRange(t *testing.T) {
	for _, c := range []struct {
		in            string
		start, length int64
		ok            bool
	}{
		{"0-0", 0, 1, true}, {"0-1023", 0, 1024, true}, {"bytes 10-19/100", 10, 10, true},
		{"5-1", 0, 0, false}, {"-1-3", 0, 0, false}, {"a-b", 0, 0, false}, {"", 0, 0, false}, {"7", 0, 0, false},
		{"0-9223372036854775807", 0, 0, false},
	} {
		start, length, ok := ParseContentRange(c.in)
		if ok != c.ok || ok && (start != c.start || length != c.length) {
			t.Errorf("ParseContentRange(%q) = %d, %d, %v", c.in, start, length, ok)
		}
	}
}

func TestParseManifest(t *testing.T) {
	dg := "sha256:" + strings.Repeat("0", 64)
	image := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"` + dg + `","size":2},"layers":[]}`
	for _, c := range []struct {
		name, body, contentType string
		ok                      bool
		index                   bool
	}{
		{"image", image, MediaTypeOCIManifest, true, false},
		{"type from header", `{"schemaVersion":2,"config":{"digest":"` + dg + `","size":1}}`, MediaTypeDockerManifest, true, false},
		{"index", `{"schemaVersion":2,"manifests":[{"digest":"` + dg + `","size":1}]}`, "", true, true},
		{"not json", `{`, "", false, false},
		{"schema 1", `{"schemaVersion":1}`, "", false, false},
		{"bad digest", `{"schemaVersion":2,"config":{"digest":"sha256:x","size":1}}`, "", false, false},
		{"no config", `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}`, "", false, false},
		{"type mismatch", image, MediaTypeDockerManifest, false, false},
		{"unknown type", `{"schemaVersion":2,"mediaType":"text/plain"}`, "", false, false},
	} {
		m, err := ParseManifest([]byte(c.body), c.contentType)
		if (err == nil) != c.ok || c.ok && m.IsIndex() != c.index {
			t.Errorf("%s: ParseManifest = %+v, %v", c.name, m, err)
		}
	}
}

func FuzzContainerReferences(f *testing.F) {
	for _, s := range []string{"latest", "sha256:" + strings.Repeat("a", 64), "te/st", "0-10", "bytes 1-2/3", "a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidImageName(s) && (strings.Contains(s, "//") || strings.Contains(s, "..") || strings.ToLower(s) != s) {
			t.Fatalf("image %q accepted", s)
		}
		if r, ok := ParseReference(s); ok && strings.ContainsAny(s, "/?#% \x00") {
			t.Fatalf("reference %q (%+v) accepted", s, r)
		}
		if start, length, ok := ParseContentRange(s); ok && (start < 0 || length <= 0) {
			t.Fatalf("range %q: %d, %d", s, start, length)
		}
		_, _ = ParseManifest([]byte(s), s)
	})
}
