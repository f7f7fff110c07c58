// Package errs holds the error categories every layer speaks. Adapters map
// their own failures onto these categories at their border, and the HTTP
// adapter chooses a status code from the category in exactly one place.
package errs

import (
	"errors"
	"strings"
)

// Category sentinels. Typed errors unwrap to one of these; callers test with errors.Is.
var (
	// ErrNotFound means the thing is absent, or hidden from the caller.
	ErrNotFound = errors.New("not found")
	// ErrUnauthenticated means a caller is required, or the credentials failed.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden means the caller is known but not allowed.
	ErrForbidden = errors.New("forbidden")
	// ErrInvalid means the input failed validation; see Fields.
	ErrInvalid = errors.New("invalid")
	// ErrBadRequest means the request itself is malformed (bad JSON, bad parameter).
	ErrBadRequest = errors.New("bad request")
	// ErrLocked means a write against an archived (read-only) resource.
	ErrLocked = errors.New("locked")
	// ErrConflict means the write collides with existing state (a taken name).
	ErrConflict = errors.New("conflict")
	// ErrTooLarge means a body or payload is over the configured limit.
	ErrTooLarge = errors.New("too large")
	// ErrPrecondition means the state of things does not allow the change
	// yet (closing an issue whose dependencies are open).
	ErrPrecondition = errors.New("precondition failed")
	// ErrNotAllowed means the action is refused in the thing's present state
	// or by its settings (merging a conflicting pull request, a merge style
	// the repository forbids): Gitea's 405.
	ErrNotAllowed = errors.New("not allowed")
)

// Error is a categorised error with a client-facing message.
type Error struct {
	// Kind is one of the category sentinels above.
	Kind error
	// Msg is safe to show to the client.
	Msg string
	// Fields names the failing input fields of an ErrInvalid error.
	Fields []string
}

// Error returns the client-facing message.
func (e *Error) Error() string { return e.Msg }

// Unwrap exposes the category so errors.Is works.
func (e *Error) Unwrap() error { return e.Kind }

// NotFound returns an ErrNotFound with msg.
func NotFound(msg string) error { return &Error{Kind: ErrNotFound, Msg: msg} }

// Unauthenticated returns an ErrUnauthenticated with msg.
func Unauthenticated(msg string) error { return &Error{Kind: ErrUnauthenticated, Msg: msg} }

// Forbidden returns an ErrForbidden with msg.
func Forbidden(msg string) error { return &Error{Kind: ErrForbidden, Msg: msg} }

// BadRequest returns an ErrBadRequest with msg.
func BadRequest(msg string) error { return &Error{Kind: ErrBadRequest, Msg: msg} }

// Locked returns an ErrLocked with msg.
func Locked(msg string) error { return &Error{Kind: ErrLocked, Msg: msg} }

// Conflict returns an ErrConflict with msg.
func Conflict(msg string) error { return &Error{Kind: ErrConflict, Msg: msg} }

// NotAllowed returns an ErrNotAllowed with msg.
func NotAllowed(msg string) error { return &Error{Kind: ErrNotAllowed, Msg: msg} }

// PreconditionFailed returns an ErrPrecondition with msg.
func PreconditionFailed(msg string) error { return &Error{Kind: ErrPrecondition, Msg: msg} }

// TooLarge returns an ErrTooLarge with msg.
func TooLarge(msg string) error { return &Error{Kind: ErrTooLarge, Msg: msg} }

// Invalid returns an ErrInvalid whose message is the field names, a colon and
// the error text, as the spec asks of 422 bodies.
func Invalid(text string, fields ...string) error {
	return &Error{Kind: ErrInvalid, Msg: strings.Join(fields, ", ") + ": " + text, Fields: fields}
}

// Message returns the client-facing message of err, or "" when err carries none.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return ""
}

// AsInvalid turns an error of category kind into a 422 naming field with the
// same message (a taken name, an unknown template); other errors pass through.
func AsInvalid(err, kind error, field string) error {
	if errors.Is(err, kind) {
		return Invalid(Message(err), field)
	}
	return err
}

// IgnoreNotFound drops a not-found error, for idempotent removals.
func IgnoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
