package repository

import (
	"path"
	"strings"
)

// MatchUnadopted reports whether the unadopted repository owner/name is
// selected by pattern (the admin listing's filter), case-insensitively:
// an empty pattern selects all; "o/n" matches owner and name each as a
// glob (an empty side matches any, a malformed glob matches none); a
// pattern without "/" selects owners or names containing it.
func MatchUnadopted(pattern, owner, name string) bool {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	owner, name = strings.ToLower(owner), strings.ToLower(name)
	if pattern == "" {
		return true
	}
	op, np, ok := strings.Cut(pattern, "/")
	if !ok {
		return strings.Contains(owner, pattern) || strings.Contains(name, pattern)
	}
	glob := func(p, s string) bool {
		if p == "" {
			return true
		}
		m, err := path.Match(p, s)
		return err == nil && m
	}
	return glob(op, owner) && glob(np, name)
}
