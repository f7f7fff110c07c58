package ports

import "github.com/depothq/depot/domain/errs"

// MissingPathError is a path absent from a revision's tree. It is a
// not-found (errors.Is errs.ErrNotFound) carrying the path and revision, so
// that each route can word it as Gitea's does: the raw and media routes
// answer "not found", the contents route git's own object-missing text.
type MissingPathError struct {
	// Path is the repository-relative path that was asked for.
	Path string
	// Rev is the revision as asked (a ref name, or a commit id).
	Rev string
}

// Error is the message of routes that take it as it is.
func (e *MissingPathError) Error() string { return "file " + e.Path + " does not exist at " + e.Rev }

// Unwrap makes it a categorised not-found with the same message.
func (e *MissingPathError) Unwrap() error { return errs.NotFound(e.Error()) }
