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

// TrackedTimeStore persists tracked times and stopwatches.
type TrackedTimeStore interface {
	Add(ctx context.Context, t *issue.TrackedTime) error
	GetByID(ctx context.Context, id int64) (*issue.TrackedTime, error)
	List(ctx context.Context, q TrackedTimeQuery) ([]*issue.TrackedTime, int64, error)
	// Delete removes one tracked time.
	Delete(ctx context.Context, id int64) error
	// DeleteByIssueUser removes the user's times on the issue (reset).
	DeleteByIssueUser(ctx context.Context, issueID, userID int64) error
	// TotalOfIssues sums the tracked seconds of these issues in one query.
	TotalOfIssues(ctx context.Context, issueIDs []int64) (map[int64]int64, error)

	// StartStopwatch records s; errs.ErrConflict when the user already runs one.
	StartStopwatch(ctx context.Context, s *issue.Stopwatch) error
	// Stopwatch returns the user's running stopwatch on the issue.
	Stopwatch(ctx context.Context, issueID, userID int64) (*issue.Stopwatch, error)
	// UserStopwatches lists the user's running stopwatches.
	UserStopwatches(ctx context.Context, userID int64, opts ListOptions) ([]*issue.Stopwatch, int64, error)
	DeleteStopwatch(ctx context.Context, id int64) error
}

// IssueRelationStore persists dependencies between issues and subscriptions.
type IssueRelationStore interface {
	// AddDependency records that issueID depends on (is blocked by) dependsOnID.
	AddDependency(ctx context.Context, issueID, dependsOnID int64) error
	RemoveDependency(ctx context.Context, issueID, dependsOnID int64) error
	// Dependencies lists the issues issueID depends on; Blocks the issues it blocks.
	Dependencies(ctx context.Context, issueID int64, opts ListOptions) ([]int64, error)
	Blocks(ctx context.Context, issueID int64, opts ListOptions) ([]int64, error)
	// DependsTransitively reports whether from depends on to, directly or not.
	DependsTransitively(ctx context.Context, from, to int64) (bool, error)

	// SetWatch records that the user watches (true) or explicitly ignores
	// (false) the issue.
	SetWatch(ctx context.Context, issueID, userID int64, watching bool) error
	// Watch returns the user's explicit choice; errs.ErrNotFound when none.
	Watch(ctx context.Context, issueID, userID int64) (bool, error)
	// Watchers lists the users watching the issue explicitly.
	Watchers(ctx context.Context, issueID int64, opts ListOptions) ([]int64, int64, error)
}
