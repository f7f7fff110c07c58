package sqlstore

import (
	"errors"
	"strings"

	"github.com/uptrace/bun/driver/pgdriver"
	"modernc.org/sqlite"
)

// uniqueOn reports whether a unique violation is of the named constraint
// (Postgres) or of a constraint covering table.column (SQLite, whose error
// names the columns instead).
func uniqueOn(err error, constraint, tableColumn string) bool {
	var pe pgdriver.Error
	if errors.As(err, &pe) {
		return pe.Field('n') == constraint
	}
	var le *sqlite.Error
	if errors.As(err, &le) {
		return strings.Contains(le.Error(), tableColumn)
	}
	return false
}
