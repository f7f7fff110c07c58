package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/domain/repository"
)

// PushEvent is what one push changed: who pushed, to which repository, and
// the refs that moved. Consumers derive Gitea's push, create and delete
// events (branches and tags) from the changes.
type PushEvent struct {
	RepoID     int64
	Owner      string
	Repo       string
	PusherID   int64
	PusherName string
	// Changes are the ref updates git applied, in the order it reported them.
	Changes []repository.RefChange
	When    time.Time
}

// Events receives what happened in repositories, for webhooks and feeds.
// Each method is called inside the transaction of the write that records the
// change, with that transaction's stores, so the work it queues (webhook
// deliveries) commits if and only if the change does. It must not do network
// I/O.
type Events interface {
	Pushed(ctx context.Context, tx Stores, e PushEvent) error
	// RepositoryCreated is called in the transaction that inserts a new
	// repository (created, generated, migrated or forked), after its copies
	// of the site's default hooks are written. A fork (Repo.ForkID set) is
	// also a fork event of its parent.
	RepositoryCreated(ctx context.Context, tx Stores, e RepoEvent) error
	// RepositoryDeleted is called in the transaction that deletes a
	// repository, before the row goes: what it queues must not depend on
	// the repository's row or its own hooks, which go with it.
	RepositoryDeleted(ctx context.Context, tx Stores, e RepoEvent) error
	// IssueChanged is called in the transaction that records a change of an
	// issue (or of the issue half of a pull request): opened, edited,
	// closed, commented, labelled, milestoned, assigned, …
	IssueChanged(ctx context.Context, tx Stores, e IssueEvent) error
	// WikiChanged is called in a transaction after a wiki page was written
	// through the API (the page itself lives in Git).
	WikiChanged(ctx context.Context, tx Stores, e WikiEvent) error
	// ReleaseChanged is called in the transaction that writes a release
	// (published, updated or deleted through the API).
	ReleaseChanged(ctx context.Context, tx Stores, e ReleaseEvent) error
	// RepositoryMoved is called in the transaction that renames a
	// repository or transfers it to another owner.
	RepositoryMoved(ctx context.Context, tx Stores, e RepoMoveEvent) error
	// MirrorSynced is called in the transaction that records a pull
	// mirror's successful sync, with the refs the sync changed.
	MirrorSynced(ctx context.Context, tx Stores, e MirrorSyncEvent) error
}

// RepoMoveEvent is a repository renamed or transferred.
type RepoMoveEvent struct {
	// Repo is the repository as it is now (new name, new owner).
	Repo *repository.Repository
	// SenderID is who renamed it, or who completed the transfer.
	SenderID int64
	// OldOwnerID, OldOwner and OldName say where it was; a transfer
	// changes the owner, a rename the name.
	OldOwnerID        int64
	OldOwner, OldName string
}

// Transferred reports whether the move changed the repository's owner.
func (e RepoMoveEvent) Transferred() bool { return e.Repo != nil && e.OldOwnerID != e.Repo.Owner.ID }

// MirrorSyncEvent is a pull mirror's sync that changed refs.
type MirrorSyncEvent struct {
	Repo    *repository.Repository
	Changes []repository.RefChange
}

// ReleaseEvent is a release published, updated or deleted.
type ReleaseEvent struct {
	Repo *repository.Repository
	// SenderID is who caused it: for "published", the release's publisher
	// (as Gitea's notifier names it), else the caller.
	SenderID int64
	// Action is Gitea's HookReleaseAction: "published", "updated" or "deleted".
	Action string
	// Release is the release as written (as it was, for "deleted").
	Release *release.Release
}

// WikiEvent is a wiki page created, edited or deleted.
type WikiEvent struct {
	Repo     *repository.Repository
	SenderID int64
	// Action is Gitea's HookWikiAction: "created", "edited" or "deleted".
	Action string
	// Page is the page's web path; Comment the commit message (none for a deletion).
	Page, Comment string
}

// RepoEvent is the creation or deletion of a repository.
type RepoEvent struct {
	// Repo is the repository as written (its ID set), or as it was before
	// its deletion.
	Repo *repository.Repository
	// SenderID is the account that caused it; 0 when none did (a failed
	// migration cleaned up), and the owner then stands in.
	SenderID int64
	// HooksFrom is, for a repository generated from a template with its
	// webhooks, the template's id: RepositoryCreated copies the template's
	// hooks into the new repository (their secrets sealed for the copies)
	// before it queues the creation's deliveries, which the copies hear.
	HooksFrom int64
}

// IssueEventKind is the webhook event family of an issue change, in
// Gitea's names.
type IssueEventKind string

// The issue event families.
const (
	IssueEventIssues    IssueEventKind = "issues"
	IssueEventComment   IssueEventKind = "issue_comment"
	IssueEventLabel     IssueEventKind = "issue_label"
	IssueEventMilestone IssueEventKind = "issue_milestone"
	IssueEventAssign    IssueEventKind = "issue_assign"
	// IssueEventPullSync is a push that moved a pull request's head
	// (action "synchronized").
	IssueEventPullSync IssueEventKind = "pull_request_sync"
	// IssueEventPullReview is a review submitted (action "reviewed"; the
	// hook event follows the review's state: approved, rejected, comment).
	IssueEventPullReview IssueEventKind = "pull_request_review"
	// IssueEventPullReviewRequest is a reviewer asked, or no longer asked,
	// to review (actions "review_requested", "review_request_removed").
	IssueEventPullReviewRequest IssueEventKind = "pull_request_review_request"
)

// IssueEvent is one change of an issue. Action is Gitea's: "opened",
// "edited", "closed", "reopened", "deleted", "assigned", "unassigned",
// "label_updated", "label_cleared", "milestoned", "demilestoned" (issues
// family), "created", "edited", "deleted" (issue_comment).
type IssueEvent struct {
	Kind   IssueEventKind
	Action string
	Repo   *repository.Repository
	// Issue is the issue after the change (before it, for "deleted").
	Issue    *issue.Issue
	SenderID int64
	// Comment is the comment created, edited or deleted (issue_comment).
	Comment *issue.Comment
	// AssigneeID is the user (un)assigned.
	AssigneeID int64
	// FromTitle and FromBody are the previous title and body of an edit
	// ("changes" in the payload); nil when unchanged.
	FromTitle, FromBody *string
	// FromRef is a retargeted pull request's previous base branch.
	FromRef *string
	// Review is the review submitted (IssueEventPullReview).
	Review *pull.Review
	// ReviewerID is the user asked (or no longer asked) to review
	// (IssueEventPullReviewRequest); for a review, its reviewer.
	ReviewerID int64
}

// PackageEvents receives the creation and deletion of package versions,
// for webhooks. Like Events, its method is called inside the transaction
// that writes the change, with that transaction's stores, and does no
// network I/O.
type PackageEvents interface {
	PackageChanged(ctx context.Context, tx Stores, e PackageEvent) error
}

// PackageEvent is a package version published or deleted.
type PackageEvent struct {
	// Action is Gitea's HookPackageAction: "created" or "deleted".
	Action string
	// Package and Version are as written (as they were, for "deleted").
	Package packages.Package
	Version packages.Version
	// SenderID is who published or deleted it.
	SenderID int64
}

// Gitea's HookPackageAction values.
const (
	PackageCreated = "created"
	PackageDeleted = "deleted"
)
