package packages

import (
	"strings"
	"testing"

	"golang.org/x/mod/module"
)

func TestGoModules(t *testing.T) {
	for _, c := range []struct {
		path, version string
		ok            bool
	}{
		{"example.com/hello", "v1.0.0", true},
		{"example.com/Depot/hello", "v0.1.0-pre.1", true},
		{"example.com/hello/v2", "v2.3.4", true},
		{"example.com/hello", "v2.0.0+incompatible", true},
		{"example.com/hello", "v2.0.0", false},
		{"example.com/hello/v2", "v1.0.0", false},
		{"example.com/hello", "v1.0", false},
		{"example.com/hello", "1.0.0", false},
		{"example.com/../x", "v1.0.0", false},
		{"", "v1.0.0", false},
	} {
		err := CheckGoModule(c.path, c.version)
		if (err == nil) != c.ok {
			t.Errorf("CheckGoModule(%q, %q) = %v, want ok=%v", c.path, c.version, err, c.ok)
		}
	}
	for _, c := range []struct{ in, path, version, file string }{
		{"example.com/m@v1.0.0/go.mod", "example.com/m", "v1.0.0", "go.mod"},
		{"example.com/m@v1.0.0/a/b.go", "example.com/m", "v1.0.0", "a/b.go"},
		{"example.com/m@v1.0.0/", "", "", ""},
		{"example.com/m/go.mod", "", "", ""},
		{"@v1.0.0/go.mod", "", "", ""},
	} {
		p, v, f, _ := GoZipEntry(c.in)
		if p != c.path || v != c.version || f != c.file {
			t.Errorf("GoZipEntry(%q) = %q, %q, %q", c.in, p, v, f)
		}
	}
}

// FuzzGoModule: what passes as a module path and version is what the go
// command accepts, the version canonical, and GoZipEntry splits back the
// names a module zip would hold.
func FuzzGoModule(f *testing.F) {
	for _, s := range []string{"example.com/m@v1.0.0/go.mod", "example.com/m/v2@v2.0.0/a.go", "x@y/z", "@/", "a@v1.0/..", "ex.com/Upper@v0.0.1/f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p, v, file, ok := GoZipEntry(name)
		if !ok {
			return
		}
		if p+"@"+v+"/"+file != name || strings.Contains(p, "@") || strings.Contains(v, "/") {
			t.Fatalf("GoZipEntry(%q) = %q, %q, %q", name, p, v, file)
		}
		if CheckGoModule(p, v) != nil {
			return
		}
		if module.Check(p, v) != nil || module.CanonicalVersion(v) != v {
			t.Fatalf("accepted %q@%q", p, v)
		}
		if _, err := module.EscapePath(p); err != nil {
			t.Fatalf("accepted %q that cannot be case-encoded: %v", p, err)
		}
	})
}
