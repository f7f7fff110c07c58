package issue

import (
	"time"

	"github.com/depothq/depot/domain/errs"
)

// ParseState reads the state an edit asks for: exactly "open" or "closed".
func ParseState(s string) (State, error) {
	switch State(s) {
	case StateOpen, StateClosed:
		return State(s), nil
	}
	return "", errs.Invalid("must be open or closed", "State")
}

// SetState moves i to st at now and reports whether anything changed.
// Closing stamps ClosedAt; reopening clears it, as Gitea does.
func (i *Issue) SetState(st State, now time.Time) bool {
	closed := st == StateClosed
	if i.IsClosed == closed {
		return false
	}
	i.IsClosed = closed
	if closed {
		t := now
		i.ClosedAt = &t
	} else {
		i.ClosedAt = nil
	}
	return true
}

// EditRights say what a caller may change on an issue. Gitea lets the
// poster and the writers of the issue's unit edit the title, the body and
// the state; only writers change milestones, assignees, labels and
// deadlines, and an edit of those by anyone else is silently ignored.
type EditRights struct {
	// Edit allows the request at all (title, body, ref, state).
	Edit bool
	// Meta allows milestone, assignees, labels and deadline.
	Meta bool
}

// RightsOf returns the edit rights of a caller who is (or is not) the
// poster and may (or may not) write issues like this one.
func RightsOf(isPoster, canWrite bool) EditRights {
	return EditRights{Edit: isPoster || canWrite, Meta: canWrite}
}
