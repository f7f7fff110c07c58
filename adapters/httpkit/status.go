// Package httpkit holds what the REST API and the Git-over-HTTP adapter share:
// the one table from error categories to statuses, reading credentials from
// headers, and the status-recording response writer of the access logs.
package httpkit

import (
	"errors"
	"net/http"

	"github.com/depothq/depot/domain/errs"
)

// byCategory lists the categories in the order they are tested.
var byCategory = []struct {
	kind   error
	status int
}{
	{errs.ErrNotFound, http.StatusNotFound},
	{errs.ErrUnauthenticated, http.StatusUnauthorized},
	{errs.ErrForbidden, http.StatusForbidden},
	{errs.ErrInvalid, http.StatusUnprocessableEntity},
	{errs.ErrBadRequest, http.StatusBadRequest},
	{errs.ErrLocked, http.StatusLocked},
	{errs.ErrConflict, http.StatusConflict},
	{errs.ErrTooLarge, http.StatusRequestEntityTooLarge},
	{errs.ErrPrecondition, http.StatusPreconditionFailed},
	{errs.ErrNotAllowed, http.StatusMethodNotAllowed},
}

// StatusOf returns the status of err's category and the message to show (the
// error's own, or the category's when it has none). ok is false for an
// uncategorised error, which the caller answers as a logged 500.
func StatusOf(err error) (status int, msg string, ok bool) {
	for _, c := range byCategory {
		if errors.Is(err, c.kind) {
			msg = errs.Message(err)
			if msg == "" {
				msg = c.kind.Error()
			}
			return c.status, msg, true
		}
	}
	return 0, "", false
}
