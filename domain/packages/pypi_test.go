package packages

import (
	"strings"
	"testing"
)

func TestPypiNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Depot.Hello", "depot-hello"},
		{"depot__hello", "depot-hello"},
		{"a-_.b", "a-b"},
		{"ABC", "abc"},
		{"x", "x"},
	} {
		if got := NormalizePypiName(c.in); got != c.want {
			t.Errorf("NormalizePypiName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		name, version string
		ok            bool
	}{
		{"depot-hello", "1.0.0", true},
		{"Depot_Hello", "1.1.0rc1", true},
		{"pkg", "2!1.0.post1.dev3+local.7", true},
		{"pkg", "v1.0-beta2", true},
		{"pkg", "1.0a", true},
		{"-pkg", "1.0", false},
		{"pkg-", "1.0", false},
		{"bad name", "1.0", false},
		{"pkg", "one", false},
		{"pkg", "1.0/2", false},
		{"pkg", "", false},
		{"", "1.0", false},
		{"pkg", "1.0 ", false},
	} {
		_, err := CheckPypi(c.name, c.version)
		if (err == nil) != c.ok {
			t.Errorf("CheckPypi(%q, %q) = %v, want ok=%v", c.name, c.version, err, c.ok)
		}
	}
}

// FuzzPypiName: an accepted name and version are safe path segments, and
// the normalised name is a fixed point of normalisation, lower case, with
// no separator run.
func FuzzPypiName(f *testing.F) {
	for _, s := range []string{"Depot.Hello", "a__b", "1.0.0", "2!1.0rc1.post2.dev3+x.y", "..", "a/b", "-", ""} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, version string) {
		norm := NormalizePypiName(name)
		if NormalizePypiName(norm) != norm || strings.Contains(norm, "--") || strings.ContainsAny(norm, "._") {
			t.Fatalf("NormalizePypiName(%q) = %q is not normal", name, norm)
		}
		got, err := CheckPypi(name, version)
		if err != nil {
			return
		}
		if got != norm || got != strings.ToLower(got) {
			t.Fatalf("CheckPypi(%q) = %q, want %q", name, got, norm)
		}
		for _, s := range []string{got, version} {
			if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\\ \x00\n") {
				t.Fatalf("unsafe %q accepted", s)
			}
		}
	})
}
