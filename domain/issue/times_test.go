package issue

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestCheckTrackTime(t *testing.T) {
	cases := []struct {
		name string
		in   TimeTracking
		want error
	}{
		{"disabled", TimeTracking{}, errs.ErrBadRequest},
		{"anyone", TimeTracking{Enabled: true}, nil},
		{"contributors only, stranger", TimeTracking{Enabled: true, OnlyContributors: true}, errs.ErrForbidden},
		{"contributors only, writer", TimeTracking{Enabled: true, OnlyContributors: true, Writer: true}, nil},
		{"contributors only, poster", TimeTracking{Enabled: true, OnlyContributors: true, Poster: true}, nil},
		{"contributors only, assignee", TimeTracking{Enabled: true, OnlyContributors: true, Assignee: true}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckTrackTime(c.in)
			if c.want == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, c.want))
		})
	}
}

func TestTrackedSecondsAndFormat(t *testing.T) {
	is := is.New(t)
	is.True(errors.Is(ValidateTrackedSeconds(0), errs.ErrInvalid))
	is.NoErr(ValidateTrackedSeconds(-60))
	is.True(errors.Is(ValidateTrackedSeconds(1<<40), errs.ErrInvalid))
	is.Equal(TimeContent(3600), "|3600")
	for in, want := range map[int64]string{0: "", 59: "59 seconds", 1: "1 second", 60: "1 minute",
		3720: "1 hour 2 minutes", 7200: "2 hours", -120: "- 2 minutes"} {
		is.Equal(FormatDuration(in), want)
	}
	start := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	is.Equal(StopwatchSeconds(start, start.Add(90*time.Second)), int64(90))
	is.Equal(StopwatchSeconds(start, start.Add(-time.Second)), int64(0))
}
