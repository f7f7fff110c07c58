// Package notification holds a user's notification threads, as Gitea keeps
// them: one thread per user and subject (an issue, a pull request, a commit
// or a repository), unread, read or pinned.
package notification

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// Status is where a thread is for its user.
type Status int

// The statuses, numbered as Gitea stores them.
const (
	StatusUnread Status = 1
	StatusRead   Status = 2
	StatusPinned Status = 3
)

// String is the status's name in the API.
func (s Status) String() string {
	switch s {
	case StatusUnread:
		return "unread"
	case StatusRead:
		return "read"
	case StatusPinned:
		return "pinned"
	}
	return ""
}

// ParseStatus reads a status name (case-insensitive); anything else is
// invalid input.
func ParseStatus(s string) (Status, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "unread":
		return StatusUnread, nil
	case "read":
		return StatusRead, nil
	case "pinned":
		return StatusPinned, nil
	}
	return 0, errs.BadRequest(fmt.Sprintf("invalid notification status %q", s))
}

// SubjectType is what a thread is about, in Gitea's API names.
type SubjectType string

// The subject types.
const (
	SubjectIssue      SubjectType = "Issue"
	SubjectPull       SubjectType = "Pull"
	SubjectCommit     SubjectType = "Commit"
	SubjectRepository SubjectType = "Repository"
)

// ParseSubjectType reads a subject-type filter value (issue, pull, commit,
// repository; case-insensitive).
func ParseSubjectType(s string) (SubjectType, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "issue":
		return SubjectIssue, nil
	case "pull":
		return SubjectPull, nil
	case "commit":
		return SubjectCommit, nil
	case "repository":
		return SubjectRepository, nil
	}
	return "", errs.BadRequest(fmt.Sprintf("invalid notification subject type %q", s))
}

// Thread is one user's notification about one subject.
type Thread struct {
	ID     int64
	UserID int64
	RepoID int64
	Status Status
	// Subject is what the thread is about; IssueID names the issue or pull
	// request, CommitID the commit.
	Subject  SubjectType
	IssueID  int64
	CommitID string
	// CommentID is the latest comment that updated the thread, 0 for none.
	CommentID int64
	// UpdatedBy is who last caused it.
	UpdatedBy int64
	Created   time.Time
	Updated   time.Time
}

// SubjectKey names a thread's subject uniquely within its user's threads.
func SubjectKey(t SubjectType, issueID int64, commitID string, repoID int64) string {
	switch t {
	case SubjectIssue, SubjectPull:
		return "issue:" + strconv.FormatInt(issueID, 10)
	case SubjectCommit:
		return "commit:" + strconv.FormatInt(repoID, 10) + ":" + commitID
	}
	return "repo:" + strconv.FormatInt(repoID, 10)
}
