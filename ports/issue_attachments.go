package ports

import (
	"context"
	"io"
	"time"

	"github.com/depothq/depot/domain/issue"
)

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
	// Put writes at most limit bytes from r, computing their SHA-256 (hex)
	// as they stream; errs.ErrTooLarge beyond. The blob stays held until release is called, and the sweep of crash
	// leftovers leaves a held blob alone: call release once the row that
	// names the blob is committed, or has failed and the blob is deleted.
	Put(ctx context.Context, uuid string, r io.Reader, limit int64) (n int64, sha256 string, release func(), err error)
	Open(ctx context.Context, uuid string) (io.ReadSeekCloser, error)
	Delete(ctx context.Context, uuid string) error
	// Stored calls fn with the UUIDs of the stored blobs last written
	// before t, at most n at a time, until fn fails.
	Stored(ctx context.Context, t time.Time, n int, fn func(uuids []string) error) error
	// RemovePartial removes what uploads cut off before t (a killed
	// process) left half-written, and returns how many files went.
	RemovePartial(ctx context.Context, t time.Time) (int, error)
}
