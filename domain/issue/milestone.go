package issue

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// MaxMilestoneTitle is the longest milestone title (Gitea's column width).
const MaxMilestoneTitle = 255

// MilestoneInput is what a client sets on a milestone; nil fields are kept
// on an edit. ClearDue removes the due date.
type MilestoneInput struct {
	Title       *string
	Description *string
	DueAt       *time.Time
	ClearDue    bool
	// State is "open" or "closed".
	State *string
}

// NewMilestone validates in and returns the milestone to insert (RepoID
// still to set), created at now. The title is required.
func NewMilestone(in MilestoneInput, now time.Time) (*Milestone, error) {
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return nil, errs.Invalid("is required", "Title")
	}
	m := &Milestone{CreatedAt: now, UpdatedAt: now}
	if err := m.Apply(in, now); err != nil {
		return nil, err
	}
	return m, nil
}

// Apply validates in and writes its set fields on m at now. Closing sets
// ClosedAt, reopening clears it; a state that does not change keeps it.
func (m *Milestone) Apply(in MilestoneInput, now time.Time) error {
	next := *m
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		switch {
		case t == "":
			return errs.Invalid("must not be empty", "Title")
		case utf8.RuneCountInString(t) > MaxMilestoneTitle:
			return errs.Invalid("must be at most 255 characters", "Title")
		}
		next.Title = t
	}
	if in.Description != nil {
		next.Description = *in.Description
	}
	switch {
	case in.ClearDue:
		next.DueAt = nil
	case in.DueAt != nil:
		if err := CheckShownDate("DueOn", *in.DueAt); err != nil {
			return err
		}
		d := in.DueAt.UTC()
		next.DueAt = &d
	}
	if in.State != nil {
		switch State(*in.State) {
		case StateOpen:
			next.IsClosed, next.ClosedAt = false, nil
		case StateClosed:
			if !next.IsClosed {
				at := now
				next.IsClosed, next.ClosedAt = true, &at
			}
		default:
			return errs.Invalid(`must be "open" or "closed"`, "State")
		}
	}
	next.UpdatedAt = now
	*m = next
	return nil
}
