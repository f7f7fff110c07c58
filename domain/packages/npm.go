package packages

import (
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// npmPart reports whether s is one segment of an npm name: it starts with
// a lower-case letter, digit or dash and goes on with those, dots and
// underscores (Gitea's `[a-z0-9-][a-z0-9-._]*`).
func npmPart(s string) bool {
	if s == "" || len(s) > 214 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case (c == '.' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}

// ParseNpmName splits an npm package name ("left-pad", "@scope/name") into
// its scope (without the "@", empty when unscoped) and bare name; an
// invalid name is errs.BadRequest.
func ParseNpmName(s string) (scope, name string, err error) {
	rest := s
	if strings.HasPrefix(s, "@") {
		var ok bool
		scope, rest, ok = strings.Cut(s[1:], "/")
		if !ok || !npmPart(scope) {
			return "", "", errs.BadRequest("package name is invalid")
		}
	}
	if !npmPart(rest) {
		return "", "", errs.BadRequest("package name is invalid")
	}
	return scope, rest, nil
}
