package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
)

// TrackedTimeQuery filters tracked times.
type TrackedTimeQuery struct {
	IssueID int64
	RepoID  int64
	UserID  int64
	// Since and Before bound created_at (zero means unbounded).
	Since, Before time.Time
	ListOptions
}

// TrackedTimeStore persists tracked times and stopwatches. Missing rows are
// errs.ErrNotFound.
type TrackedTimeStore interface {
	// Add inserts t (setting ID), on the repository of its issue.
	Add(ctx context.Context, t *issue.TrackedTime) error
	GetByID(ctx context.Context, id int64) (*issue.TrackedTime, error)
	// GetByIDs finds these tracked times in one query; absent ids are skipped.
	GetByIDs(ctx context.Context, ids []int64) ([]*issue.TrackedTime, error)
	// List returns one page, oldest first, and the total matching.
	List(ctx context.Context, q TrackedTimeQuery) ([]*issue.TrackedTime, int64, error)
	// Delete removes one tracked time.
	Delete(ctx context.Context, id int64) error
	// DeleteByIssueUser removes the user's times on the issue (reset) and
	// returns the seconds they summed to.
	DeleteByIssueUser(ctx context.Context, issueID, userID int64) (int64, error)
	// TotalOfIssues sums the tracked seconds of these issues in one query.
	TotalOfIssues(ctx context.Context, issueIDs []int64) (map[int64]int64, error)

	// StartStopwatch records s; errs.ErrConflict when the user already runs one.
	StartStopwatch(ctx context.Context, s *issue.Stopwatch) error
	// Stopwatch returns the user's running stopwatch on the issue.
	Stopwatch(ctx context.Context, issueID, userID int64) (*issue.Stopwatch, error)
	// UserStopwatch returns the user's running stopwatch, on any issue.
	UserStopwatch(ctx context.Context, userID int64) (*issue.Stopwatch, error)
	// UserStopwatches lists the user's running stopwatches.
	UserStopwatches(ctx context.Context, userID int64, opts ListOptions) ([]*issue.Stopwatch, int64, error)
	DeleteStopwatch(ctx context.Context, id int64) error
}
