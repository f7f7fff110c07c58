package issue

import (
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// TimeTracking is what decides whether a user may track time on an issue:
// the repository's settings and the user's relation to the issue.
type TimeTracking struct {
	// Enabled is the repository's time tracker switch.
	Enabled bool
	// OnlyContributors restricts tracking to writers, the poster and assignees.
	OnlyContributors bool
	// Writer, Poster and Assignee are the user's relations to the issue.
	Writer, Poster, Assignee bool
}

// ErrTimeTrackingDisabled answers a time-tracking write on a repository
// whose tracker is off (Gitea's 400).
var ErrTimeTrackingDisabled = errs.BadRequest("time tracking disabled")

// CheckTrackTime returns nil when the user may add, reset or delete times,
// ErrTimeTrackingDisabled when the tracker is off, and a forbidden error when
// the repository lets only contributors track time and the user is none.
func CheckTrackTime(t TimeTracking) error {
	if !t.Enabled {
		return ErrTimeTrackingDisabled
	}
	if t.OnlyContributors && !t.Writer && !t.Poster && !t.Assignee {
		return errs.Forbidden("not allowed to track time on this issue")
	}
	return nil
}

// ValidateTrackedSeconds checks the amount of an added time: any non-zero
// number of seconds (Gitea binds the field as required; a negative amount
// corrects an earlier one), within a hundred years either way.
func ValidateTrackedSeconds(seconds int64) error {
	const limit = 100 * 366 * 24 * 3600
	if seconds == 0 {
		return errs.Invalid("must not be zero", "Time")
	}
	if seconds > limit || seconds < -limit {
		return errs.Invalid("is out of range", "Time")
	}
	return nil
}

// TimeContent is a time event's stored content: "|" and the seconds, the
// format Gitea uses since 1.21 to tell it from the older formatted text.
func TimeContent(seconds int64) string { return "|" + strconv.FormatInt(seconds, 10) }

// FormatDuration writes seconds the way Gitea shows tracked time: hours and
// minutes ("1 hour 5 minutes"), or seconds under a minute.
func FormatDuration(seconds int64) string {
	neg := seconds < 0
	if neg {
		seconds = -seconds
	}
	var parts []string
	unit := func(n int64, name string) {
		if n == 0 {
			return
		}
		s := strconv.FormatInt(n, 10) + " " + name
		if n != 1 {
			s += "s"
		}
		parts = append(parts, s)
	}
	unit(seconds/3600, "hour")
	unit(seconds/60%60, "minute")
	if len(parts) == 0 {
		unit(seconds, "second")
	}
	out := strings.Join(parts, " ")
	if neg && out != "" {
		out = "- " + out
	}
	return out
}

// StopwatchSeconds is how long a stopwatch started at start has run at now
// (never negative, whatever the clocks say).
func StopwatchSeconds(start, now time.Time) int64 {
	d := int64(now.Sub(start) / time.Second)
	if d < 0 {
		return 0
	}
	return d
}

// DeadlineOf is the stored deadline of a due date: the end (23:59:59 UTC)
// of the calendar day the date names in its own zone, as Gitea keeps only
// the day of a deadline.
func DeadlineOf(due time.Time) time.Time {
	y, m, d := due.Date()
	return time.Date(y, m, d, 23, 59, 59, 0, time.UTC)
}

// deadlineDay is a deadline as its timeline content shows it.
func deadlineDay(t time.Time) string { return t.UTC().Format("2006-01-02") }

// DeadlineEvent says which timeline event a deadline change records and its
// content (Gitea's: the new day, "new|old" when modified, the old day when
// removed). changed is false when the deadline stays the same.
func DeadlineEvent(old, updated *time.Time) (typ CommentType, content string, changed bool) {
	switch {
	case old == nil && updated == nil:
		return 0, "", false
	case updated == nil:
		return CommentRemovedDeadline, deadlineDay(*old), true
	case old == nil:
		return CommentAddedDeadline, deadlineDay(*updated), true
	case old.Equal(*updated):
		return 0, "", false
	default:
		return CommentModifiedDeadline, deadlineDay(*updated) + "|" + deadlineDay(*old), true
	}
}

// CheckShownDate refuses, as a 422 naming field, a date that falls outside
// the years 1 to 9999 in UTC: the API shows dates in UTC as RFC 3339,
// which has no later years, and Postgres has no year 0, so such a date
// could not be stored or answered.
func CheckShownDate(field string, t time.Time) error {
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		return errs.Invalid("must be a date between the years 1 and 9999 in UTC", field)
	}
	return nil
}
