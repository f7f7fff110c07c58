package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/notification"
)

// NotificationQuery filters one user's notification threads.
type NotificationQuery struct {
	UserID int64
	// RepoID limits to one repository when non-zero.
	RepoID int64
	// Statuses keeps threads in one of them; empty: all.
	Statuses []notification.Status
	// Subjects keeps threads about one of them; empty: all.
	Subjects []notification.SubjectType
	// Since and Before bound the thread's update time when non-zero.
	Since, Before time.Time
	// Viewer, when set, keeps only threads of repositories it may see (a
	// collaborator removed from a private repository no longer lists its
	// threads); nil: no such check.
	Viewer *RepoViewer
	ListOptions
}

// RepoUnread is how many unread threads a user has in one repository.
type RepoUnread struct {
	RepoID int64
	N      int64
}

// NotificationStore persists notification threads: one per user and
// subject (notification.SubjectKey); threads go with their user and their
// repository.
type NotificationStore interface {
	// Notify creates or refreshes the threads ts in one statement: a
	// thread of the same user and subject turns unread (a pinned one stays
	// pinned) and takes the new comment, actor and update time.
	Notify(ctx context.Context, ts []notification.Thread) error
	// List pages q's threads, most recently updated first, with the total.
	List(ctx context.Context, q NotificationQuery) ([]*notification.Thread, int64, error)
	// CountUnread counts q's unread threads (its UserID, RepoID and Viewer
	// apply) on the (user, status) index.
	CountUnread(ctx context.Context, q NotificationQuery) (int64, error)
	// UnreadPerRepo counts userID's unread threads per repository from the
	// (user, status, repository) index alone: what CountUnread sums before
	// its viewer's check, for a cache of it.
	UnreadPerRepo(ctx context.Context, userID int64) ([]RepoUnread, error)
	// CountVisible sums the counts of perRepo whose repository viewer may
	// see: CountUnread's second step.
	CountVisible(ctx context.Context, viewer RepoViewer, perRepo []RepoUnread) (int64, error)
	// Get returns one thread; errs.ErrNotFound when none.
	Get(ctx context.Context, id int64) (*notification.Thread, error)
	// SetStatus changes one thread's status; errs.ErrNotFound when none.
	SetStatus(ctx context.Context, id int64, s notification.Status, updated time.Time) error
	// MarkAll moves q's threads (its Statuses, Subjects and Before apply,
	// paging not) to status and returns their ids.
	MarkAll(ctx context.Context, q NotificationQuery, to notification.Status, updated time.Time) ([]int64, error)
}
