package issue

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestNewMilestone(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	due := time.Date(2025, 3, 1, 0, 0, 0, 0, time.FixedZone("X", 3600))
	for _, tc := range []struct {
		name   string
		in     MilestoneInput
		field  string
		closed bool
	}{
		{"valid", MilestoneInput{Title: strPtr(" v1 "), DueAt: &due}, "", false},
		{"created closed", MilestoneInput{Title: strPtr("v1"), State: strPtr("closed")}, "", true},
		{"no title", MilestoneInput{}, "Title", false},
		{"blank title", MilestoneInput{Title: strPtr(" ")}, "Title", false},
		{"bad state", MilestoneInput{Title: strPtr("v1"), State: strPtr("done")}, "State", false},
		{"long title", MilestoneInput{Title: strPtr(string(make([]byte, 256)))}, "Title", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			m, err := NewMilestone(tc.in, now)
			if tc.field != "" {
				var e *errs.Error
				is.True(errors.As(err, &e))
				is.Equal(e.Fields, []string{tc.field})
				return
			}
			is.NoErr(err)
			is.Equal(m.Title, "v1")
			is.Equal(m.IsClosed, tc.closed)
			is.Equal(m.ClosedAt != nil, tc.closed)
			if tc.in.DueAt != nil {
				is.Equal(*m.DueAt, due.UTC())
			}
		})
	}
}

func TestMilestoneStateTransitions(t *testing.T) {
	is := is.New(t)
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	m, err := NewMilestone(MilestoneInput{Title: strPtr("v1")}, t0)
	is.NoErr(err)
	is.Equal(m.State(), StateOpen)

	t1 := t0.Add(time.Hour)
	is.NoErr(m.Apply(MilestoneInput{State: strPtr("closed")}, t1))
	is.Equal(m.State(), StateClosed)
	is.Equal(*m.ClosedAt, t1)

	// Closing again keeps the first closing date.
	is.NoErr(m.Apply(MilestoneInput{State: strPtr("closed"), Description: strPtr("d")}, t1.Add(time.Hour)))
	is.Equal(*m.ClosedAt, t1)
	is.Equal(m.Description, "d")

	is.NoErr(m.Apply(MilestoneInput{State: strPtr("open")}, t1))
	is.Equal(m.State(), StateOpen)
	is.Equal(m.ClosedAt, nil)

	due := t0.Add(48 * time.Hour)
	is.NoErr(m.Apply(MilestoneInput{DueAt: &due}, t1))
	is.Equal(*m.DueAt, due)
	is.NoErr(m.Apply(MilestoneInput{ClearDue: true}, t1))
	is.Equal(m.DueAt, nil)

	before := *m
	is.True(m.Apply(MilestoneInput{Title: strPtr(""), State: strPtr("closed")}, t1) != nil)
	is.Equal(*m, before) // a failed edit changes nothing
}
