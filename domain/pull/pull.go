// Package pull holds the rules of pull requests: what one is beyond its
// issue, the merge styles, and who may open, edit, merge and update one.
// It does no I/O.
package pull

import (
	"strconv"
	"strings"
	"time"
)

// Status is a pull request's mergeability, as last computed in the
// background (Gitea's PullRequestStatus names).
type Status string

// The mergeability states.
const (
	StatusChecking       Status = "checking"
	StatusMergeable      Status = "mergeable"
	StatusConflict       Status = "conflict"
	StatusEmpty          Status = "empty"
	StatusAncestor       Status = "ancestor"
	StatusManuallyMerged Status = "manually_merged"
	StatusError          Status = "error"
)

// Style is a way of merging (Gitea's MergeStyle).
type Style string

// The merge styles.
const (
	StyleMerge           Style = "merge"
	StyleRebase          Style = "rebase"
	StyleRebaseMerge     Style = "rebase-merge"
	StyleSquash          Style = "squash"
	StyleFastForwardOnly Style = "fast-forward-only"
	StyleManuallyMerged  Style = "manually-merged"
)

// PullRequest is what a pull request has beyond its issue (same ID space
// as nothing else: ID is the pull request's own id, IssueID its issue's).
type PullRequest struct {
	ID      int64
	IssueID int64
	// BaseRepoID and Index are the issue's repository and index.
	BaseRepoID int64
	Index      int64
	// HeadRepoID is the repository of the head branch (BaseRepoID for a
	// same-repository pull request); 0 once that repository is deleted.
	HeadRepoID int64
	HeadBranch string
	BaseBranch string
	// HeadCommitID is the head commit refs/pull/<index>/head names.
	HeadCommitID string
	// Check is the mergeability as last computed, for HeadCommitID.
	Check
	HasMerged           bool
	MergedAt            *time.Time
	MergedByID          int64
	MergeCommitID       string
	AllowMaintainerEdit bool
}

// Check is what an in-memory merge of the head into the base found.
type Check struct {
	Status Status
	// MergeBase is the best common ancestor of head and base ("" when none).
	MergeBase string
	// ConflictedFiles are the paths in conflict (StatusConflict), sorted,
	// at most MaxConflictedFiles.
	ConflictedFiles []string
	// CommitsAhead counts the head's commits not in the base; CommitsBehind
	// the base's not in the head. They and the diff stats (merge base to
	// head) are stored, so lists show them without a Git diff each.
	CommitsAhead, CommitsBehind        int
	Additions, Deletions, ChangedFiles int
}

// MaxConflictedFiles bounds the conflicted paths a check records.
const MaxConflictedFiles = 100

// AutoMerge is a merge scheduled for when the base branch's required
// checks succeed on the head commit it was scheduled for.
type AutoMerge struct {
	PullID int64
	DoerID int64
	Style  Style
	// Message is the merge commit's message (title and body).
	Message      string
	DeleteBranch bool
	// HeadCommitID is the head when scheduled: a push cancels the merge.
	HeadCommitID string
	Created      time.Time
}

// HeadRef is the reference in the base repository that follows the head.
func (p *PullRequest) HeadRef() string { return HeadRef(p.Index) }

// HeadRef is refs/pull/<index>/head.
func HeadRef(index int64) string { return "refs/pull/" + itoa(index) + "/head" }

// IsSameRepo reports whether head and base live in one repository.
func (p *PullRequest) IsSameRepo() bool { return p.HeadRepoID == p.BaseRepoID }

// workInProgressPrefixes are Gitea's default WORK_IN_PROGRESS_PREFIXES.
var workInProgressPrefixes = []string{"WIP:", "[WIP]"}

// IsWorkInProgress reports whether a title marks a draft, as Gitea does:
// it starts with one of the prefixes, whatever their case.
func IsWorkInProgress(title string) bool {
	t := strings.ToUpper(strings.TrimSpace(title))
	for _, p := range workInProgressPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
