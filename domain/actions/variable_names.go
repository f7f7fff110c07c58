package actions

import (
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// The naming rule of variables, as GitHub and Gitea give it: letters, digits
// and underscores, not starting with a digit, not starting with GITEA_ or
// GITHUB_ (any case), and not CI, which runners always set. Names are
// case-insensitive and kept upper-cased.
const (
	msgVariableNameChars    = "name must start with a letter or underscore and contain only letters, numbers, and underscores"
	msgVariableNamePrefix   = "name cannot start with 'GITEA_' or 'GITHUB_'"
	msgVariableNameReserved = "'CI' is a reserved name"
)

// VariableName checks name against the naming rule and returns it
// upper-cased; a name that breaks it is errs.ErrInvalid naming field.
func VariableName(field, name string) (string, error) {
	if !variableNameChars(name) {
		return "", errs.Invalid(msgVariableNameChars, field)
	}
	upper := strings.ToUpper(name)
	if strings.HasPrefix(upper, "GITEA_") || strings.HasPrefix(upper, "GITHUB_") {
		return "", errs.Invalid(msgVariableNamePrefix, field)
	}
	if upper == "CI" {
		return "", errs.Invalid(msgVariableNameReserved, field)
	}
	return upper, nil
}

// LookupVariableName is the stored form of a name read from a path: names
// are matched without regard to case. A name with characters the rule
// refuses is returned unchanged, so it matches no stored name (upper-casing
// it could turn a non-ASCII letter such as "ſ" into an ASCII one).
func LookupVariableName(name string) string {
	if !variableNameChars(name) {
		return name
	}
	return strings.ToUpper(name)
}

// variableNameChars reports whether name is ^[A-Za-z_][A-Za-z0-9_]*$.
func variableNameChars(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
