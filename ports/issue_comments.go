package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
)

// CommentQuery filters comments of one issue or one repository.
type CommentQuery struct {
	IssueID int64
	RepoID  int64
	// Types restricts to these types; empty means every type.
	Types []issue.CommentType
	// Since and Before bound updated_at, both inclusive (zero means unbounded).
	Since, Before time.Time
	// IsPull, for a repository-wide listing, keeps the comments of issues
	// only (false) or of pull requests only (true); nil keeps both.
	IsPull *bool
	// TextOnly asks for what a comment's text shows: its id, type, issue,
	// repository, poster, original author, body and times. A store may
	// leave the other columns (those of timeline events) zero.
	TextOnly bool
	ListOptions
}

// CommentStore persists comments and timeline events. Missing rows are
// errs.ErrNotFound.
type CommentStore interface {
	// Create inserts c (setting ID), and for a plain comment counts it on
	// the issue and touches the issue's updated_at.
	Create(ctx context.Context, c *issue.Comment) error
	GetByID(ctx context.Context, id int64) (*issue.Comment, error)
	// GetByIDs finds these comments in one query.
	GetByIDs(ctx context.Context, ids []int64) ([]*issue.Comment, error)
	Update(ctx context.Context, c *issue.Comment) error
	// Delete removes the comment (and its reactions and attachment rows),
	// uncounting a plain comment.
	Delete(ctx context.Context, id int64) error
	// List returns one page in creation order and the total.
	List(ctx context.Context, q CommentQuery) ([]*issue.Comment, int64, error)
	// PosterIDs returns the distinct posters of plain comments on the issue.
	PosterIDs(ctx context.Context, issueID int64) ([]int64, error)
	// RefsFrom returns the cross-reference events (issue_ref, comment_ref,
	// pull_ref) that the text of issue refIssueID (refCommentID 0) or of
	// its comment refCommentID wrote on other issues.
	RefsFrom(ctx context.Context, refIssueID, refCommentID int64) ([]*issue.Comment, error)
}
