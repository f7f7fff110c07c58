// Package actions holds the workflow automation entities and their rules:
// the variables a repository's, an account's or an organisation's workflows
// read, with their naming rule (variable_names.go).
package actions

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// Scope is where a variable belongs: an account (a user or an
// organisation, OwnerID) or a repository (RepoID); exactly one is set.
type Scope struct {
	OwnerID int64
	RepoID  int64
}

// OwnerScope is the scope of the account with this id.
func OwnerScope(id int64) Scope { return Scope{OwnerID: id} }

// RepoScope is the scope of the repository with this id.
func RepoScope(id int64) Scope { return Scope{RepoID: id} }

// Variable is a named value workflows read. Its name is stored upper-cased
// and is unique within its scope.
type Variable struct {
	ID          int64
	Scope       Scope
	Name        string
	Data        string
	Description string
	Created     time.Time
	Updated     time.Time
}

// Limits on a variable's text, counted in characters as Gitea counts them.
const (
	// VariableDataMaxRunes is the longest value; a longer one is refused.
	VariableDataMaxRunes = 65536
	// VariableDescriptionMaxRunes is the longest description; a longer one
	// is cut, not refused (as Gitea does).
	VariableDescriptionMaxRunes = 4096
)

// VariableText checks and normalises a variable's value and description:
// the value is required and at most VariableDataMaxRunes characters, its
// line endings become "\n"; the description is cut to
// VariableDescriptionMaxRunes characters.
func VariableText(value, description string) (data, desc string, err error) {
	if value == "" {
		return "", "", errs.Invalid("Required", "Value")
	}
	data = normalizeEOL(value)
	if utf8.RuneCountInString(data) > VariableDataMaxRunes {
		return "", "", errs.Invalid("data too long", "Value")
	}
	return data, truncateRunes(description, VariableDescriptionMaxRunes), nil
}

// normalizeEOL turns "\r\n" and lone "\r" into "\n".
func normalizeEOL(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// truncateRunes keeps the first n characters of s.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
