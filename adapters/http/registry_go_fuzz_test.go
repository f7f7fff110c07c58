package http

import (
	"strings"
	"testing"

	"golang.org/x/mod/module"
)

// FuzzGoProxyPath feeds arbitrary paths to the GOPROXY path parser: no
// panic, and what it accepts names a valid module path, and a version
// that cannot climb out of its path.
func FuzzGoProxyPath(f *testing.F) {
	for _, s := range []string{"example.com/!depot/hello/@v/list", "example.com/m/@v/v1.0.0.info", "example.com/m/@v/v1.0.0.zip",
		"example.com/m/@latest", "example.com/m/@v/..zip", "Upper/@v/list", "x/@v/v1.0.0.mod/more"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		req, ok := parseGoProxyPath(s)
		if !ok {
			return
		}
		if err := module.CheckPath(req.path); err != nil {
			t.Fatalf("accepted module path %q: %v", req.path, err)
		}
		if req.what != "list" && req.what != "latest" && req.what != "info" && req.what != "mod" && req.what != "zip" {
			t.Fatalf("accepted %q as %q", s, req.what)
		}
		if req.version == "." || req.version == ".." || strings.ContainsAny(req.version, "/\\\x00") {
			t.Fatalf("accepted version %q", req.version)
		}
	})
}
