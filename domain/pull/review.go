package pull

import (
	"strings"
	"time"
)

// ReviewState is what a review says of a pull request. The values are
// Gitea's ReviewType numbers, so they are stored and compared as it does.
type ReviewState int

// The review states.
const (
	// ReviewPending is a draft: only its author (and site administrators)
	// see it, until it is submitted.
	ReviewPending ReviewState = iota
	// ReviewApproved approves the changes.
	ReviewApproved
	// ReviewComment gives feedback without a verdict.
	ReviewComment
	// ReviewRequestChanges asks for changes (it blocks a merge where the
	// branch's rule says rejected reviews do).
	ReviewRequestChanges
	// ReviewRequest is a request that a user or a team review the pull
	// request: Gitea keeps requests among the reviews.
	ReviewRequest
)

var reviewStateNames = [...]string{"PENDING", "APPROVED", "COMMENT", "REQUEST_CHANGES", "REQUEST_REVIEW"}

// String is the state as the API names it ("APPROVED", …); "" when unknown.
func (s ReviewState) String() string {
	if s >= 0 && int(s) < len(reviewStateNames) {
		return reviewStateNames[s]
	}
	return ""
}

// IsVerdict reports whether the state approves or rejects: the states that
// may be official, dismissed and stale in a way that matters to merges.
func (s ReviewState) IsVerdict() bool { return s == ReviewApproved || s == ReviewRequestChanges }

// ParseReviewEvent reads the event a client gives to create or submit a
// review: APPROVED, REQUEST_CHANGES and COMMENT name their states, and
// anything else (none, PENDING, an unknown word) keeps the review pending,
// as Gitea does.
func ParseReviewEvent(event string) ReviewState {
	switch strings.TrimSpace(event) {
	case "APPROVED":
		return ReviewApproved
	case "REQUEST_CHANGES":
		return ReviewRequestChanges
	case "COMMENT":
		return ReviewComment
	}
	return ReviewPending
}

// Review is a review of a pull request, or (State ReviewRequest) a request
// for one. A request names a user (ReviewerID) or a team (ReviewerTeamID);
// every other review is a user's.
type Review struct {
	ID      int64
	IssueID int64
	// ReviewerID is the reviewing user; 0 for a team's request.
	ReviewerID int64
	// ReviewerTeamID is the team asked to review (requests only).
	ReviewerTeamID int64
	State          ReviewState
	Body           string
	// CommitID is the head commit the review judged.
	CommitID string
	// Official says the review counts towards required approvals: its
	// reviewer may write the base (or is on the rule's approvals
	// allowlist), and it is the reviewer's latest verdict.
	Official bool
	// Stale says the head moved since the review (CommitID is not the head).
	Stale bool
	// Dismissed says a repository administrator (or a newer verdict of the
	// same reviewer) set the review aside.
	Dismissed bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// VisibleTo reports whether a viewer sees r: a pending review only shows
// to its author and to site administrators.
func (r *Review) VisibleTo(viewerID int64, siteAdmin bool) bool {
	return r.State != ReviewPending || siteAdmin || (viewerID != 0 && viewerID == r.ReviewerID)
}

// IsStale reports whether a review of commitID is stale once the head is
// head. A review that names no commit judged nothing in particular and is
// never stale.
func IsStale(commitID, head string) bool { return commitID != "" && head != "" && commitID != head }

// DiffLine is where a line comment points: a path of the diff and a line
// on its new side (New > 0) or its old side (Old > 0).
type DiffLine struct {
	Path     string
	Old, New int64
}

// Signed is the line as Gitea stores it: the new side's number, or the old
// side's negated.
func (l DiffLine) Signed() int64 {
	if l.Old > 0 {
		return -l.Old
	}
	return l.New
}

// LineOf reads a stored signed line back into a DiffLine.
func LineOf(path string, signed int64) DiffLine {
	if signed < 0 {
		return DiffLine{Path: path, Old: -signed}
	}
	return DiffLine{Path: path, New: signed}
}
