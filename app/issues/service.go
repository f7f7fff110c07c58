// Package issues holds the issue tracker's use cases: issues and their
// state, comments and the timeline, labels and milestones, reactions,
// attachments, time tracking, dependencies, pins, locks and subscriptions.
// Policy lives in domain/issue; this package gathers the facts through
// ports, writes inside one transaction and emits an event for webhooks in
// that same transaction.
package issues

import (
	"context"
	"log/slog"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// Service runs the issue tracker's use cases.
type Service struct {
	stores   ports.Stores
	tx       ports.Transactor
	clock    ports.Clock
	events   ports.Events
	git      ports.GitContent
	blobs    ports.AttachmentBlobs
	users    *users.Service
	repos    *repos.Service
	settings site.Settings
	log      *slog.Logger
	// pullRules are the pull request use cases' checks on issue writes
	// that touch a pull request (nil until they register).
	pullRules PullRules
}

// PullRules are the checks the pull request use cases add to issue writes
// on a pull request's issue.
type PullRules interface {
	// CheckReopen refuses to reopen a pull request whose head branch is gone
	// or that another open pull request duplicates.
	CheckReopen(ctx context.Context, i *issue.Issue) error
	// CheckStateChange refuses to close or reopen a merged pull request.
	CheckStateChange(ctx context.Context, i *issue.Issue) error
}

// UsePullRules registers the pull request use cases' checks.
func (s *Service) UsePullRules(r PullRules) { s.pullRules = r }

// NewService builds the issue tracker's use cases.
func NewService(stores ports.Stores, tx ports.Transactor, clock ports.Clock, events ports.Events,
	git ports.GitContent, blobs ports.AttachmentBlobs, us *users.Service, rs *repos.Service,
	settings site.Settings, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, clock: clock, events: events, git: git, blobs: blobs,
		users: us, repos: rs, settings: settings, log: log}
}

// errIssueNotFound answers an absent issue and one the caller may not see.
var errIssueNotFound = errs.NotFound("issue does not exist")

// CheckTracker applies the issue tracker's rule (permission.CheckIssueTracker:
// issues, or pull requests, readable, else 404) where no route row's
// IssuesOrPulls code has: the attachment download by UUID, a path outside
// the repository's routes. The API routes get it from their rows.
func CheckTracker(a *repos.Access) error { return permission.CheckIssueTracker(a.Facts()) }

// unitOf is the unit an issue belongs to: pulls for a pull request.
func unitOf(i *issue.Issue) permission.Unit {
	if i.IsPull {
		return permission.UnitPulls
	}
	return permission.UnitIssues
}

// canRead reports whether the caller reads issues like i.
func canRead(a *repos.Access, i *issue.Issue) bool {
	u := unitOf(i)
	return a.Repo.HasUnit(u) && (a.Perm.CanRead(u) || a.Caller.Actor().IsAdmin())
}

// canWrite reports whether the caller writes issues like i (labels,
// milestones, assignees, state of others' issues).
func canWrite(a *repos.Access, i *issue.Issue) bool {
	return a.Perm.CanWrite(unitOf(i)) || a.Perm.IsAdmin() || a.Caller.Actor().IsAdmin()
}

// Open finds the issue (or pull request) with this index in the caller's
// repository: 404 when absent or in a unit the caller cannot read.
func (s *Service) Open(ctx context.Context, a *repos.Access, index int64) (*issue.Issue, error) {
	if index <= 0 {
		return nil, errIssueNotFound
	}
	i, err := s.stores.Issues.GetByIndex(ctx, a.Repo.ID, index)
	if err != nil {
		return nil, err
	}
	if !canRead(a, i) {
		return nil, errIssueNotFound
	}
	return i, nil
}

// Parent names what attachments and reactions hang on, as the route gives
// it: an issue by its index (Comment 0), or a comment by its id.
type Parent struct {
	Index   int64
	Comment int64
}

// IssueParent is the parent naming issue index itself (not its comments).
func IssueParent(index int64) Parent { return Parent{Index: index} }

// CommentParent is the parent naming comment id.
func CommentParent(id int64) Parent { return Parent{Comment: id} }

// openParent finds parent p for the caller: the issue (as Open) and, for a
// comment, the comment (as openComment; nil for the issue itself).
func (s *Service) openParent(ctx context.Context, a *repos.Access, p Parent) (*issue.Issue, *issue.Comment, error) {
	if p.Comment == 0 {
		i, err := s.Open(ctx, a, p.Index)
		return i, nil, err
	}
	c, i, err := s.openComment(ctx, s.stores, a, p.Comment)
	return i, c, err
}

// timestamp is the time of a write, at the precision both databases keep, so
// what a write answers equals what a later read answers.
func (s *Service) timestamp() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// removeFiles deletes attachment files whose rows are gone (removeBlobs).
func (s *Service) removeFiles(ctx context.Context, files []*issue.Attachment) {
	uuids := make([]string, len(files))
	for k, f := range files {
		uuids[k] = f.UUID
	}
	s.removeBlobs(ctx, uuids)
}

// removeBlobs deletes the attachment blobs uuids whose rows are gone. A
// failure leaves an unreachable file behind (for the start-up sweep),
// which is logged, not answered: the change the caller asked for is
// committed.
func (s *Service) removeBlobs(ctx context.Context, uuids []string) {
	for _, u := range uuids {
		if err := s.blobs.Delete(context.WithoutCancel(ctx), u); err != nil {
			s.log.Warn("removing an attachment file failed", "uuid", u, "err", err)
		}
	}
}
