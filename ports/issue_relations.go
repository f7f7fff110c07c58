package ports

import "context"

// IssueRelationStore persists dependencies between issues, subscriptions
// and the pinned issues' order (issues.pin_order).
type IssueRelationStore interface {
	// AddDependency records that issueID depends on (is blocked by)
	// dependsOnID; errs.ErrConflict when it already does.
	AddDependency(ctx context.Context, issueID, dependsOnID int64) error
	// RemoveDependency forgets it; errs.ErrNotFound when there was none.
	RemoveDependency(ctx context.Context, issueID, dependsOnID int64) error
	// HasDependency reports whether issueID depends directly on dependsOnID.
	HasDependency(ctx context.Context, issueID, dependsOnID int64) (bool, error)
	// Dependencies lists one page of the issues issueID depends on, Blocks
	// one page of the issues it blocks, oldest link first, with the totals.
	Dependencies(ctx context.Context, issueID int64, opts ListOptions) ([]int64, int64, error)
	Blocks(ctx context.Context, issueID int64, opts ListOptions) ([]int64, int64, error)
	// DependsTransitively reports whether from depends on to, directly or not.
	DependsTransitively(ctx context.Context, from, to int64) (bool, error)
	// HasOpenDependencies reports whether an issue it depends on is still
	// open (Gitea refuses to close such an issue with a 412).
	HasOpenDependencies(ctx context.Context, issueID int64) (bool, error)

	// SetWatch records that the user watches (true) or explicitly ignores
	// (false) the issue.
	SetWatch(ctx context.Context, issueID, userID int64, watching bool) error
	// Watch returns the user's explicit choice; errs.ErrNotFound when none.
	Watch(ctx context.Context, issueID, userID int64) (bool, error)
	// Watchers lists the users watching the issue explicitly.
	Watchers(ctx context.Context, issueID int64, opts ListOptions) ([]int64, int64, error)
	// Ignorers lists the users who explicitly ignore the issue (muted it),
	// ascending.
	Ignorers(ctx context.Context, issueID int64) ([]int64, error)
	// IsParticipant reports whether the user posted the issue, is assigned
	// to it or commented on it.
	IsParticipant(ctx context.Context, issueID, userID int64) (bool, error)
	// Subscribers lists one page (ordered by user id) of the issue's
	// subscribers: its explicit watchers and its participants (poster,
	// assignees, commenters) who did not opt out, with the total.
	Subscribers(ctx context.Context, issueID int64, opts ListOptions) ([]int64, int64, error)

	// Pin puts the issue last among the repository's pinned issues of its
	// kind (issues or pull requests) and returns its position; pinning a
	// pinned issue changes nothing.
	Pin(ctx context.Context, issueID int64) (int, error)
	// Unpin removes the issue from the pinned ones, closing the gap so the
	// positions stay 1..n; unpinning an unpinned issue changes nothing.
	Unpin(ctx context.Context, issueID int64) error
	// MovePin moves a pinned issue to position (1..n), shifting the others.
	MovePin(ctx context.Context, issueID int64, position int) error
	// Pinned lists the ids of the repository's pinned issues (or pull
	// requests) in pin order.
	Pinned(ctx context.Context, repoID int64, isPull bool) ([]int64, error)
}
