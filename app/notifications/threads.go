package notifications

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Service holds the use cases of a user's notification threads. Every one
// is the caller's own: another user's thread does not exist for it, nor
// does a thread of a repository it may no longer see.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	repos  *repos.Service
	clock  ports.Clock
	unread *UnreadCache
}

// NewService builds the notification use cases; unread is the cache of the
// unread counts the fan-out drops too.
func NewService(stores ports.Stores, tx ports.Transactor, rs *repos.Service, clock ports.Clock, unread *UnreadCache) *Service {
	return &Service{stores: stores, tx: tx, repos: rs, clock: clock, unread: unread}
}

// Filter selects threads to list, as Gitea's list routes read their query.
type Filter struct {
	// All keeps every status; else Statuses, by default unread and pinned.
	All      bool
	Statuses []notification.Status
	Subjects []notification.SubjectType
	Since    time.Time
	Before   time.Time
	ports.ListOptions
}

// Mark selects threads to move to To (by default read), as Gitea's mark
// routes read their query.
type Mark struct {
	// LastReadAt, when set, keeps the threads updated at or before it.
	LastReadAt time.Time
	// All keeps every status; else Statuses, by default unread.
	All      bool
	Statuses []notification.Status
	To       notification.Status
}

// Page is threads with what renders them: their repositories, issues and
// which pull requests were merged.
type Page struct {
	Threads []*notification.Thread
	Total   int64
	Repos   map[int64]*repository.Repository
	Issues  map[int64]*issue.Issue
	Merged  map[int64]bool
}

// viewer is the caller as the repository visibility check sees it.
func viewer(c auth.Caller) *ports.RepoViewer {
	return &ports.RepoViewer{UserID: c.UserID(), IsAdmin: c.IsAdmin(), Restricted: c.User.IsRestricted,
		PublicOnly: c.Scopes().PublicOnly()}
}

// query is the store's query of c's threads, in repo when non-nil.
func query(c auth.Caller, repo *repos.Access) ports.NotificationQuery {
	q := ports.NotificationQuery{UserID: c.UserID(), Viewer: viewer(c)}
	if repo != nil {
		q.RepoID = repo.Repo.ID
	}
	return q
}

// List pages c's threads (in repo when non-nil), newest update first.
func (s *Service) List(ctx context.Context, c auth.Caller, repo *repos.Access, f Filter) (*Page, error) {
	if !c.Signed() {
		return nil, errs.Unauthenticated("token is required")
	}
	q := query(c, repo)
	q.Subjects, q.Since, q.Before, q.ListOptions = f.Subjects, f.Since, f.Before, f.ListOptions
	if !f.All {
		q.Statuses = f.Statuses
		if len(q.Statuses) == 0 {
			q.Statuses = []notification.Status{notification.StatusUnread, notification.StatusPinned}
		}
	}
	list, total, err := s.stores.Notifications.List(ctx, q)
	if err != nil {
		return nil, err
	}
	return s.page(ctx, list, total)
}

// CountUnread counts c's unread threads in repositories c may see: the
// counts per repository come from the cache (or the index), the check of
// which repositories c sees runs each time.
func (s *Service) CountUnread(ctx context.Context, c auth.Caller) (int64, error) {
	if !c.Signed() {
		return 0, errs.Unauthenticated("token is required")
	}
	perRepo, err := s.unread.get(ctx, c.UserID(), s.stores.Notifications.UnreadPerRepo)
	if err != nil {
		return 0, err
	}
	return s.stores.Notifications.CountVisible(ctx, *viewer(c), perRepo)
}

var errNoThread = errs.NotFound("notification thread does not exist")

// thread finds c's thread id: 404 for another user's, or one of a
// repository c may no longer read.
func (s *Service) thread(ctx context.Context, c auth.Caller, id int64) (*notification.Thread, error) {
	if !c.Signed() {
		return nil, errs.Unauthenticated("token is required")
	}
	t, err := s.stores.Notifications.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if t.UserID != c.UserID() {
		return nil, errNoThread
	}
	if _, err := s.repos.OpenByID(ctx, c, t.RepoID); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errNoThread
		}
		return nil, err
	}
	return t, nil
}

// Get returns c's thread id.
func (s *Service) Get(ctx context.Context, c auth.Caller, id int64) (*Page, error) {
	t, err := s.thread(ctx, c, id)
	if err != nil {
		return nil, err
	}
	return s.page(ctx, []*notification.Thread{t}, 1)
}

// Set moves c's thread id to status to (read when zero) and returns it.
func (s *Service) Set(ctx context.Context, c auth.Caller, id int64, to notification.Status) (*Page, error) {
	t, err := s.thread(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if to == 0 {
		to = notification.StatusRead
	}
	if t.Status != to {
		now := s.clock.Now().UTC().Truncate(time.Microsecond)
		err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			return tx.Notifications.SetStatus(ctx, t.ID, to, now)
		})
		s.unread.drop(t.UserID)
		if err != nil {
			return nil, err
		}
		t.Status, t.Updated = to, now
	}
	return s.page(ctx, []*notification.Thread{t}, 1)
}

// MarkAll moves the threads m selects of c (in repo when non-nil) and
// returns them as changed.
func (s *Service) MarkAll(ctx context.Context, c auth.Caller, repo *repos.Access, m Mark) (*Page, error) {
	if !c.Signed() {
		return nil, errs.Unauthenticated("token is required")
	}
	q := query(c, repo)
	q.Before = m.LastReadAt
	if !m.All {
		q.Statuses = m.Statuses
		if len(q.Statuses) == 0 {
			q.Statuses = []notification.Status{notification.StatusUnread}
		}
	}
	to := m.To
	if to == 0 {
		to = notification.StatusRead
	}
	// The threads are read, then moved, in one transaction with the same
	// filter: two statements whatever their number.
	var list []*notification.Thread
	now := s.clock.Now().UTC().Truncate(time.Microsecond)
	defer s.unread.drop(c.UserID())
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		before, _, err := tx.Notifications.List(ctx, q)
		if err != nil {
			return err
		}
		ids, err := tx.Notifications.MarkAll(ctx, q, to, now)
		if err != nil {
			return err
		}
		moved := make(map[int64]bool, len(ids))
		for _, id := range ids {
			moved[id] = true
		}
		for _, t := range before {
			if moved[t.ID] {
				t.Status, t.Updated = to, now
				list = append(list, t)
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return s.page(ctx, list, int64(len(list)))
}

// page loads what renders list: its repositories, issues and merged pulls,
// each in one query.
func (s *Service) page(ctx context.Context, list []*notification.Thread, total int64) (*Page, error) {
	p := &Page{Threads: list, Total: total, Repos: map[int64]*repository.Repository{}, Issues: map[int64]*issue.Issue{},
		Merged: map[int64]bool{}}
	if len(list) == 0 {
		return p, nil
	}
	var repoIDs, issueIDs, pullIDs []int64
	for _, t := range list {
		repoIDs = append(repoIDs, t.RepoID)
		if t.IssueID != 0 {
			issueIDs = append(issueIDs, t.IssueID)
		}
	}
	var err error
	if p.Repos, err = s.stores.Repos.GetByIDs(ctx, repoIDs); err != nil {
		return nil, err
	}
	if len(issueIDs) > 0 {
		issues, err := s.stores.Issues.GetByIDs(ctx, issueIDs)
		if err != nil {
			return nil, err
		}
		for _, i := range issues {
			p.Issues[i.ID] = i
			if i.IsPull && i.IsClosed {
				pullIDs = append(pullIDs, i.ID)
			}
		}
	}
	if len(pullIDs) > 0 {
		pulls, err := s.stores.Pulls.ByIssueIDs(ctx, pullIDs)
		if err != nil {
			return nil, err
		}
		for id, pr := range pulls {
			p.Merged[id] = pr.HasMerged
		}
	}
	return p, nil
}
