package ports

import (
	"context"
	"io"
)

// ActionLogFiles keeps the logs of finished tasks, one compressed file per
// task, out of the database.
type ActionLogFiles interface {
	// Write stores the plain log r as the task's file, replacing one there
	// is; the file is synced to disk before Write returns, so the rows
	// may then be deleted.
	Write(ctx context.Context, taskID int64, r io.Reader) error
	// Open streams the task's log, decompressed; none is errs.ErrNotFound.
	Open(ctx context.Context, taskID int64) (io.ReadCloser, error)
}
