package issue

import (
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// MaxCommentBodyBytes bounds the text of a comment. Gitea sets no limit of
// its own; one mebibyte is far beyond any real comment and keeps a single
// request from filling the database.
const MaxCommentBodyBytes = 1 << 20

// ValidateCommentBody checks the text of a new or edited comment: required
// (blank text counts as missing, as Gitea's binding does) and at most
// MaxCommentBodyBytes. Errors name Gitea's binding field "Body".
func ValidateCommentBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return errs.Invalid("Required", "Body")
	}
	if len(body) > MaxCommentBodyBytes {
		return errs.Invalid("MaxSize", "Body")
	}
	return nil
}

// HasContent reports whether comments of type t carry text that may be
// edited: plain comments, code comments and reviews (Gitea's
// HasContentSupport). Editing another type answers 204 without a change.
func (t CommentType) HasContent() bool {
	return t == CommentPlain || t == CommentCode || t == CommentReview
}

// IsRef reports whether t records that some other text mentioned the issue.
func (t CommentType) IsRef() bool {
	return t == CommentIssueRef || t == CommentCommentRef || t == CommentPullRef || t == CommentCommitRef
}

// CanChangeComment reports whether a doer may edit or delete c: its poster,
// or anyone who writes the issues (or pull requests) it belongs to.
func CanChangeComment(c *Comment, doerID int64, writer bool) bool {
	return doerID != 0 && (doerID == c.PosterID || writer)
}

// CanCommentOn reports whether a doer may comment on i: a locked issue takes
// comments from writers (and site administrators) only.
func CanCommentOn(i *Issue, writer bool) error {
	if i.IsLocked && !writer {
		return errs.Forbidden("You cannot comment on a locked issue.")
	}
	return nil
}

// FriendlyRef is an issue ref as a change_issue_ref event records it: a
// branch by its short name (Gitea trims refs/heads/), anything else as is.
func FriendlyRef(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// EventText is the text the timeline shows for an event's stored content:
// time events keep "|seconds" (Gitea's format since 1.21) and show them as
// a duration ("1 hour 30 minutes"); other content shows as stored.
func EventText(t CommentType, content string) string {
	if (t == CommentAddTimeManual || t == CommentStopTracking || t == CommentDeleteTimeManual) &&
		strings.HasPrefix(content, "|") {
		if secs, err := strconv.ParseInt(content[1:], 10, 64); err == nil {
			return FormatDuration(secs)
		}
	}
	return content
}
