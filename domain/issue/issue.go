// Package issue holds the issue tracker's rules: issues (and the issue half
// of pull requests) with their per-repository index and open/closed state,
// comments and timeline events, labels, milestones, reactions, attachments,
// time tracking, dependencies and subscriptions. It is pure: the
// application gathers facts through ports and asks these functions.
package issue

import "time"

// State is an issue's or milestone's state: exactly "open" or "closed".
type State string

// The two states (spec section 3).
const (
	StateOpen   State = "open"
	StateClosed State = "closed"
)

// Issue is an issue, or the issue half of a pull request. Index is unique
// within the repository and shared by issues and pull requests.
type Issue struct {
	ID       int64
	RepoID   int64
	Index    int64
	PosterID int64
	// OriginalAuthor and OriginalAuthorID name the author on the server a
	// migration copied the issue from, when no account here stands for
	// them (the copy is then posted by the migrating user); empty and 0
	// otherwise.
	OriginalAuthor   string
	OriginalAuthorID int64
	Title            string
	Body             string
	// Ref is the branch or tag the issue is about ("refs/heads/x"), optional.
	Ref      string
	IsPull   bool
	IsClosed bool
	IsLocked bool
	// PinOrder is the position among the repository's pinned issues
	// (1-based); 0 when not pinned.
	PinOrder int
	// MilestoneID is 0 when the issue has no milestone.
	MilestoneID int64
	// Deadline is nil when none is set.
	Deadline    *time.Time
	NumComments int
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// ClosedAt is nil while open.
	ClosedAt *time.Time
}

// State returns the issue's state.
func (i *Issue) State() State {
	if i.IsClosed {
		return StateClosed
	}
	return StateOpen
}

// Label is a repository's (RepoID set) or an organisation's (OrgID set)
// label. Color is six lower-case hex digits without '#'.
type Label struct {
	ID          int64
	RepoID      int64
	OrgID       int64
	Name        string
	Color       string
	Description string
	// Exclusive makes labels of one scope ("scope/name") mutually exclusive on an issue.
	Exclusive bool
	// ArchivedAt is nil unless archived.
	ArchivedAt      *time.Time
	NumIssues       int
	NumClosedIssues int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Milestone groups issues of one repository.
type Milestone struct {
	ID              int64
	RepoID          int64
	Title           string
	Description     string
	IsClosed        bool
	NumIssues       int
	NumClosedIssues int
	// DueAt is nil when no due date is set.
	DueAt     *time.Time
	ClosedAt  *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// State returns the milestone's state.
func (m *Milestone) State() State {
	if m.IsClosed {
		return StateClosed
	}
	return StateOpen
}

// CommentType tells a plain comment from the timeline's events. The values
// are Gitea's, so that they can be stored and compared as it does.
type CommentType int

// The comment types, in Gitea's numbering.
const (
	CommentPlain CommentType = iota
	CommentReopen
	CommentClose
	CommentIssueRef
	CommentCommitRef
	CommentCommentRef
	CommentPullRef
	CommentLabel
	CommentMilestone
	CommentAssignees
	CommentChangeTitle
	CommentDeleteBranch
	CommentStartTracking
	CommentStopTracking
	CommentAddTimeManual
	CommentCancelTracking
	CommentAddedDeadline
	CommentModifiedDeadline
	CommentRemovedDeadline
	CommentAddDependency
	CommentRemoveDependency
	CommentCode
	CommentReview
	CommentLock
	CommentUnlock
	CommentChangeTargetBranch
	CommentDeleteTimeManual
	CommentReviewRequest
	CommentMergePull
	CommentPullPush
	CommentProject
	CommentProjectColumn
	CommentDismissReview
	CommentChangeIssueRef
	CommentScheduledMerge
	CommentCancelScheduledMerge
	CommentPin
	CommentUnpin
	CommentChangeTimeEstimate
)

var commentTypeNames = [...]string{
	"comment", "reopen", "close", "issue_ref", "commit_ref", "comment_ref", "pull_ref", "label",
	"milestone", "assignees", "change_title", "delete_branch", "start_tracking", "stop_tracking",
	"add_time_manual", "cancel_tracking", "added_deadline", "modified_deadline", "removed_deadline",
	"add_dependency", "remove_dependency", "code", "review", "lock", "unlock", "change_target_branch",
	"delete_time_manual", "review_request", "merge_pull", "pull_push", "project", "project_board",
	"dismiss_review", "change_issue_ref", "pull_scheduled_merge", "pull_cancel_scheduled_merge",
	"pin", "unpin", "change_time_estimate",
}

// String returns the type's name in Gitea's timeline ("comment", "label", …).
func (t CommentType) String() string {
	if t >= 0 && int(t) < len(commentTypeNames) {
		return commentTypeNames[t]
	}
	return "unknown"
}

// Comment is a plain comment (Type CommentPlain) or a timeline event. The
// event fields say what changed; only those of the type are set.
type Comment struct {
	ID       int64
	Type     CommentType
	IssueID  int64
	RepoID   int64
	PosterID int64
	Body     string
	// OriginalAuthor and OriginalAuthorID name a migrated comment's author
	// on the source server (see Issue).
	OriginalAuthor   string
	OriginalAuthorID int64

	// LabelID is the label added or (with Content "") removed (CommentLabel;
	// Content "1" means added, as Gitea stores it).
	LabelID int64
	// OldMilestoneID and MilestoneID are the milestone change (CommentMilestone).
	OldMilestoneID, MilestoneID int64
	// AssigneeID and RemovedAssignee are the assignee change (CommentAssignees).
	AssigneeID      int64
	RemovedAssignee bool
	// OldTitle and NewTitle are the title change (CommentChangeTitle).
	OldTitle, NewTitle string
	// OldRef and NewRef are the ref change (CommentChangeIssueRef), branch
	// names without refs/heads/ as Gitea stores them.
	OldRef, NewRef string
	// RefRepoID, RefIssueID and RefCommentID locate the text that
	// mentioned this issue (CommentIssueRef, CommentCommentRef, CommentPullRef).
	RefRepoID, RefIssueID, RefCommentID int64
	// DependentIssueID is the other issue of a dependency change.
	DependentIssueID int64
	// TimeID is the tracked time of a time event.
	TimeID int64
	// Content carries the event's extra text: deadlines ("2026-01-02|2026-02-03"),
	// label added ("1"), lock reason, tracked duration.
	Content string

	// ReviewID is the pull request review a code comment, a review's
	// timeline entry, a dismissal or a review request belongs to.
	ReviewID int64
	// AssigneeTeamID is the team asked (or no longer asked) to review
	// (CommentReviewRequest; AssigneeID names a user instead).
	AssigneeTeamID int64
	// TreePath and Line anchor a code comment to the diff: the path, and
	// the line on the new side, or on the old side negated (Gitea's
	// convention). CommitSHA is the commit the comment was written on and
	// Patch the diff lines kept with it.
	TreePath  string
	Line      int64
	CommitSHA string
	Patch     string
	// Invalidated marks a code comment whose line changed since (outdated).
	Invalidated bool
	// ResolveDoerID is who marked the conversation a code comment starts
	// resolved; 0 while unresolved.
	ResolveDoerID int64

	CreatedAt time.Time
	UpdatedAt time.Time
}

// Reaction is one user's reaction to an issue (CommentID 0) or a comment.
type Reaction struct {
	ID        int64
	Type      string
	IssueID   int64
	CommentID int64
	UserID    int64
	CreatedAt time.Time
}

// Attachment is a file uploaded to an issue (CommentID 0) or a comment.
type Attachment struct {
	ID         int64
	UUID       string
	RepoID     int64
	IssueID    int64
	CommentID  int64
	UploaderID int64
	Name       string
	Size       int64
	// SHA256 is the bytes' checksum (hex); empty for files stored before
	// Depot kept one.
	SHA256        string
	DownloadCount int64
	CreatedAt     time.Time
}

// TrackedTime is time a user spent on an issue, in seconds.
type TrackedTime struct {
	ID        int64
	IssueID   int64
	UserID    int64
	Seconds   int64
	CreatedAt time.Time
}

// Stopwatch is a running time measurement; a user runs at most one.
type Stopwatch struct {
	ID        int64
	IssueID   int64
	UserID    int64
	CreatedAt time.Time
}
