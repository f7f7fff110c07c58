package ports

import (
	"context"
	"io"
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

// ReactionStore persists reactions to issues and comments.
type ReactionStore interface {
	// Add records r; errs.ErrConflict when the user already reacted so.
	Add(ctx context.Context, r *issue.Reaction) error
	// Get finds the user's reaction of that type to the issue (commentID 0)
	// or comment.
	Get(ctx context.Context, issueID, commentID, userID int64, typ string) (*issue.Reaction, error)
	// Remove deletes the user's reaction of that type; removing an absent
	// one is not an error.
	Remove(ctx context.Context, issueID, commentID, userID int64, typ string) error
	// List returns the reactions of the issue (commentID 0) or comment, oldest first.
	List(ctx context.Context, issueID, commentID int64, opts ListOptions) ([]*issue.Reaction, int64, error)
}

// AttachmentStore persists attachment rows (the bytes are in an AttachmentBlobs).
type AttachmentStore interface {
	Create(ctx context.Context, a *issue.Attachment) error
	GetByID(ctx context.Context, id int64) (*issue.Attachment, error)
	// GetByUUID finds an attachment by the UUID of its download address.
	GetByUUID(ctx context.Context, uuid string) (*issue.Attachment, error)
	// CountDownload adds one to the attachment's download count.
	CountDownload(ctx context.Context, id int64) error
	// ListByIssue returns the issue's own (comment 0) or a comment's attachments.
	ListByIssue(ctx context.Context, issueID, commentID int64) ([]*issue.Attachment, error)
	// OfComments returns the attachments of these comments in one query.
	OfComments(ctx context.Context, commentIDs []int64) (map[int64][]*issue.Attachment, error)
	Update(ctx context.Context, a *issue.Attachment) error
	Delete(ctx context.Context, id int64) error
}

// AttachmentBlobs stores attachment bytes by UUID under the data directory.
type AttachmentBlobs interface {
	// NewUUID makes a random (version 4) UUID for a new attachment.
	NewUUID() (string, error)
	// Put writes at most limit bytes from r; errs.ErrTooLarge beyond.
	Put(ctx context.Context, uuid string, r io.Reader, limit int64) (int64, error)
	Open(ctx context.Context, uuid string) (io.ReadSeekCloser, error)
	Delete(ctx context.Context, uuid string) error
}
