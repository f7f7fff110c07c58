package ports

import (
	"context"
	"io"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// ActionArtifactStore persists the artifacts workflow runs upload.
type ActionArtifactStore interface {
	// Upsert creates the run's artifact of a's name, or resets the one
	// there is (a task uploading it again) to a's job, task, status and
	// times with no size; it sets a.ID and a.Created.
	Upsert(ctx context.Context, a *actions.Artifact) error
	// Get finds an artifact by id.
	Get(ctx context.Context, id int64) (*actions.Artifact, error)
	// ByName finds the run's artifact of that name.
	ByName(ctx context.Context, runID int64, name string) (*actions.Artifact, error)
	// Confirm marks a pending artifact confirmed with its size and digest.
	Confirm(ctx context.Context, id, size int64, sha256 string, now time.Time) error
	// List returns one page of the repository's confirmed artifacts,
	// newest first, of one run when runID is not 0 and of one name when
	// name is not "", and the total.
	List(ctx context.Context, repoID, runID int64, name string, opts ListOptions) ([]*actions.Artifact, int64, error)
	// ListRun returns the run's confirmed artifacts in id order.
	ListRun(ctx context.Context, runID int64) ([]*actions.Artifact, error)
	// Delete removes an artifact's row.
	Delete(ctx context.Context, id int64) error
	// Expired returns at most n artifacts expired at now, oldest expiry
	// first.
	Expired(ctx context.Context, now time.Time, n int) ([]*actions.Artifact, error)
}

// ArtifactBlobs keeps artifacts' bytes by artifact id: the blocks and
// appended chunks of an upload under way, and the finished zip.
type ArtifactBlobs interface {
	// PutBlock stores one block of an upload under its id, streamed, at
	// most limit bytes (errs.ErrTooLarge beyond).
	PutBlock(ctx context.Context, artifactID int64, blockID string, r io.Reader, limit int64) (int64, error)
	// Append adds r to the upload's appended chunks.
	Append(ctx context.Context, artifactID int64, r io.Reader, limit int64) (int64, error)
	// SetBlockList records the order of the upload's blocks.
	SetBlockList(ctx context.Context, artifactID int64, ids []string) error
	// Commit makes the upload the artifact's content: its blocks in the
	// recorded order, or its appended chunks without a block list; at most
	// limit bytes. It returns the size and SHA-256 (hex) and drops the
	// upload's parts. Nothing uploaded is errs.ErrNotFound.
	Commit(ctx context.Context, artifactID int64, limit int64) (int64, string, error)
	// Open reads a committed artifact.
	Open(ctx context.Context, artifactID int64) (io.ReadSeekCloser, error)
	// Delete removes an artifact's content and any upload under way; an
	// absent one is no error.
	Delete(ctx context.Context, artifactID int64) error
	// Exists says whether an artifact's content is stored.
	Exists(ctx context.Context, artifactID int64) (bool, error)
	// Stored calls fn with the ids of the artifacts with content stored (a
	// finished zip or an upload under way) last written before t, each
	// once, at most n at a time (for the doctor).
	Stored(ctx context.Context, t time.Time, n int, fn func(artifactIDs []int64) error) error
}

// ActionsSigner signs what the Actions protocols hand out with a key of
// the site: artifact URLs and the runtime tokens of tasks.
type ActionsSigner interface {
	// SignURL signs msg for a URL (URL-safe base64).
	SignURL(msg string) string
	// VerifyURL checks sig against msg in constant time.
	VerifyURL(msg, sig string) bool
	// RuntimeToken issues a task's ACTIONS_RUNTIME_TOKEN valid until exp.
	RuntimeToken(c actions.RuntimeClaims, exp time.Time) (string, error)
	// ParseRuntimeToken checks a runtime token's signature and expiry at
	// now and returns its claims; a bad one is errs.ErrUnauthenticated.
	ParseRuntimeToken(raw string, now time.Time) (actions.RuntimeClaims, error)
}
