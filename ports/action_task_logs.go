package ports

import (
	"context"
	"io"
	"time"
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

	// Exists reports whether the task's file is stored, for the doctor.
	Exists(ctx context.Context, taskID int64) (bool, error)
	// Stored calls fn with the task ids of the files last written before
	// t, at most n at a time, until fn fails, for the doctor.
	Stored(ctx context.Context, t time.Time, n int, fn func(taskIDs []int64) error) error
	// Delete removes the task's file; an absent one is not an error.
	Delete(ctx context.Context, taskID int64) error
}
