package http

import (
	"strings"
	"testing"

	"github.com/depothq/depot/domain/packages"
)

// FuzzNpmPath feeds arbitrary segment lists to the npm path parser and the
// name check behind it: no panic, and an accepted name is a valid npm name
// that can never climb out of its path.
func FuzzNpmPath(f *testing.F) {
	for _, s := range []string{"left-pad", "@scope/name", "@scope|name|-|1.0.0|name-1.0.0.tgz", "-|package|x|dist-tags",
		"..", "@|x", "Bad Name", "a|-rev|1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parseNpmPath(strings.Split(s, "|"))
		if !ok {
			return
		}
		scope, name, err := packages.ParseNpmName(p.name)
		if err != nil {
			return
		}
		for _, part := range []string{scope, name} {
			if part == "." || part == ".." || strings.ContainsAny(part, "/\\\x00 ") || strings.ToLower(part) != part {
				t.Fatalf("accepted %q (scope %q, name %q)", p.name, scope, name)
			}
		}
	})
}
