package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// IssueQuery filters an issue listing of one repository or, for the
// cross-repository search, of every repository a viewer may read.
type IssueQuery struct {
	// RepoIDs restricts to these repositories; empty with Viewer set means
	// every repository the viewer may read issues (or pull requests) of.
	RepoIDs []int64
	// Viewer, for the cross-repository search, is who searches.
	Viewer *IssueViewer
	// OwnerID and TeamID narrow the search to an owner's repositories or a team's.
	OwnerID, TeamID int64
	// PriorityRepoID sorts this repository's issues first.
	PriorityRepoID int64

	// State is "open", "closed" or "all" (empty means open).
	State string
	// IsPull: nil means both, else issues only (false) or pull requests only (true).
	IsPull *bool
	// BaseBranch keeps the pull requests into this base branch.
	BaseBranch string
	// LabelIDs: issues carrying all of them.
	LabelIDs []int64
	// LabelNames: issues carrying all of them (resolved against the repository's and its owner's labels).
	LabelNames []string
	// MilestoneIDs: issues in one of them; NoMilestone: issues without any.
	MilestoneIDs []int64
	NoMilestone  bool
	// MilestoneNames: issues in a milestone with one of these titles (the
	// cross-repository search names milestones, not ids).
	MilestoneNames []string
	// Keyword is full-text searched in titles, bodies and plain comments:
	// every word of it (issue.SearchTerms) must start a word of the issue's
	// title and body, or of one of its comments. A keyword that is a number
	// also matches the issue with that index. A keyword without any word
	// matches nothing.
	Keyword string
	// Since and Before bound updated_at (zero means unbounded).
	Since, Before time.Time
	// PosterID, AssigneeID and MentionedID filter by user (0 means any).
	// Mentioned means "@name" appears in the issue's body.
	PosterID, AssigneeID, MentionedID int64
	// Sort is Gitea's sort name ("latest", "oldest", "recentupdate",
	// "leastupdate", "mostcomment", "leastcomment", "nearduedate",
	// "farduedate", "priority"); empty means latest.
	Sort string
	ListOptions
}

// IssueViewer is who searches across repositories.
type IssueViewer struct {
	UserID  int64 // 0 for anonymous
	IsAdmin bool
	// Restricted users see only what they own, collaborate on or are given by a team.
	Restricted bool
	// PublicOnly restricts to public repositories (public-only tokens).
	PublicOnly bool
}

// IssueStore persists issues and pull requests' issue rows, their
// assignees, the per-repository index and the search index. Missing rows
// are errs.ErrNotFound.
//
// Create, Update and Delete keep the repository's issue and pull counters
// (open and closed) in step in their own statements' transaction, so the
// counters are exact after every write; RecountRepo recomputes them from
// the rows, for repairs.
type IssueStore interface {
	// Create allocates the repository's next index atomically, inserts i
	// (setting ID and Index) and indexes it for search.
	Create(ctx context.Context, i *issue.Issue) error
	GetByID(ctx context.Context, id int64) (*issue.Issue, error)
	GetByIndex(ctx context.Context, repoID, index int64) (*issue.Issue, error)
	// GetByIDs finds these issues in one query; absent ids are skipped.
	GetByIDs(ctx context.Context, ids []int64) ([]*issue.Issue, error)
	// Update writes every mutable column of i (not the comment counter,
	// which the comment store keeps) and re-indexes it.
	Update(ctx context.Context, i *issue.Issue) error
	// Touch sets updated_at (a comment or event was added).
	Touch(ctx context.Context, id int64, at time.Time) error
	// Delete removes the issue with its comments, labels, assignees,
	// reactions, times, dependencies and subscriptions.
	Delete(ctx context.Context, id int64) error
	// List returns one page (in SQL) and the total matching.
	List(ctx context.Context, q IssueQuery) ([]*issue.Issue, int64, error)
	// RecountRepo recomputes the repository's issue and pull counters.
	RecountRepo(ctx context.Context, repoID int64) error
	// ReserveIndexes makes the repository's next index at least upTo+1, so
	// a migration keeps the source's numbers across the gaps its pull
	// requests and deleted issues left. It never lowers the counter.
	ReserveIndexes(ctx context.Context, repoID, upTo int64) error

	// Assignees returns the assignee ids of these issues in one query.
	Assignees(ctx context.Context, issueIDs []int64) (map[int64][]int64, error)
	// SetAssignees replaces the issue's assignees.
	SetAssignees(ctx context.Context, issueID int64, userIDs []int64) error

	// Repositories loads the repositories (with their owners) of a
	// cross-repository result in one query; absent ids are skipped.
	Repositories(ctx context.Context, ids []int64) ([]*repository.Repository, error)

	// PageRecords loads what rendering these issues shows besides their
	// rows, in one query per kind of record whatever their number.
	PageRecords(ctx context.Context, list []*issue.Issue, opt IssuePageOptions) (*IssuePageRecords, error)
}

// IssuePageOptions adjust what PageRecords reads.
type IssuePageOptions struct {
	// MoreUsers are accounts the page shows besides posters and assignees
	// (a pull request's merger, repository owners), read with them into
	// Users.
	MoreUsers []int64
	// NoAttachments leaves Attachments empty, unread: a pull request's JSON
	// shows none.
	NoAttachments bool
}

// IssuePageRecords are the records of a page of issues, each map by issue
// id unless told: absent keys mean none.
type IssuePageRecords struct {
	// Labels are by name, then id.
	Labels map[int64][]*issue.Label
	// Assignees are user ids, ascending.
	Assignees map[int64][]int64
	// Attachments are the issue's own (not its comments'), by id.
	Attachments map[int64][]*issue.Attachment
	// Milestones are by milestone id.
	Milestones map[int64]*issue.Milestone
	// Users are the posters, assignees and MoreUsers that still exist, by
	// user id.
	Users map[int64]*user.User
}
