package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun/driver/pgdriver"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/depothq/depot/domain/errs"
)

// violation is the kind of constraint a write broke, whatever the driver.
type violation int

const (
	noViolation violation = iota
	uniqueViolation
	foreignKeyViolation
)

func violationOf(err error) violation {
	var le *sqlite.Error
	if errors.As(err, &le) {
		switch le.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return uniqueViolation
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return foreignKeyViolation
		}
		return noViolation
	}
	var pe pgdriver.Error
	if errors.As(err, &pe) {
		switch pe.Field('C') {
		case "23505":
			return uniqueViolation
		case "23503":
			return foreignKeyViolation
		}
	}
	return noViolation
}

// mapping says what a failed statement means to the domain. Empty messages
// leave that case as an internal error.
type mapping struct {
	op string // for the internal error's context, never shown to clients
	// notFound is the message for no rows.
	notFound string
	// conflict is the message for a unique violation.
	conflict string
	// missingRef is the message for a foreign-key violation: the row refers to
	// something that is gone, which the caller sees as not found.
	missingRef string
}

// mapErr translates a driver error into a domain category at the border, so
// no driver text reaches a client; anything unmapped stays an internal error
// with the operation named for the log.
func (m mapping) mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) && m.notFound != "" {
		return errs.NotFound(m.notFound)
	}
	switch violationOf(err) {
	case uniqueViolation:
		if m.conflict != "" {
			return errs.Conflict(m.conflict)
		}
	case foreignKeyViolation:
		if m.missingRef != "" {
			return errs.NotFound(m.missingRef)
		}
	}
	return fmt.Errorf("sqlstore: %s: %w", m.op, err)
}

// affected turns "no row matched" into the mapping's not-found error, for
// writes that address one row by key.
func (m mapping) affected(res sql.Result, err error) error {
	if err != nil {
		return m.mapErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return m.mapErr(err)
	}
	if n == 0 {
		return m.mapErr(sql.ErrNoRows)
	}
	return nil
}

// domainAll converts query rows to domain values with each row's toDomain.
func domainAll[R, T any](rows []R, toDomain func(*R) T) []T {
	out := make([]T, len(rows))
	for i := range rows {
		out[i] = toDomain(&rows[i])
	}
	return out
}
