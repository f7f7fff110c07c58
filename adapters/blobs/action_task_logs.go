package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/klauspost/compress/zstd"
)

// ActionLogs keeps finished tasks' logs under one directory, as
// <dir>/<id mod 256>/<id>.log.zst: Zstandard frames written and read as
// streams (klauspost/compress), so neither side holds a log in memory.
type ActionLogs struct{ dir string }

var _ ports.ActionLogFiles = (*ActionLogs)(nil)

// NewActionLogs keeps task logs under dir, creating it readable by the
// server's user only.
func NewActionLogs(dir string) (*ActionLogs, error) {
	if err := makeStoreDir(dir, "task log"); err != nil {
		return nil, err
	}
	return &ActionLogs{dir: dir}, nil
}

func (l *ActionLogs) path(id int64) string {
	return filepath.Join(l.dir, fmt.Sprintf("%02x", id%256), strconv.FormatInt(id, 10)+".log.zst")
}

// Write compresses r into a temporary file, syncs it, renames it into
// place and syncs the folder: once it returns, the log survives a crash.
func (l *ActionLogs) Write(ctx context.Context, taskID int64, r io.Reader) error {
	return placeFile(l.path(taskID), "task log", func(f *os.File) error {
		zw, err := zstd.NewWriter(f, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, ctxReader{ctx, r}); err != nil {
			_ = zw.Close()
			return fmt.Errorf("blobs: write task log: %w", err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("blobs: write task log: %w", err)
		}
		return nil
	})
}

// Open streams the task's log decompressed.
func (l *ActionLogs) Open(_ context.Context, taskID int64) (io.ReadCloser, error) {
	f, err := os.Open(l.path(taskID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.NotFound("task log does not exist")
	}
	if err != nil {
		return nil, fmt.Errorf("blobs: open task log: %w", err)
	}
	zr, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("blobs: read task log: %w", err)
	}
	return &zstdFile{zr: zr, f: f}, nil
}

// Exists reports whether the task's log file is stored.
func (l *ActionLogs) Exists(ctx context.Context, taskID int64) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	_, err := os.Lstat(l.path(taskID))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("blobs: stat task log: %w", err)
	}
	return true, nil
}

// Stored calls fn with the task ids of the log files last written before
// t, at most n at a time. Files not where their name puts them (a log
// being written) are not the store's and are skipped.
func (l *ActionLogs) Stored(ctx context.Context, t time.Time, n int, fn func(taskIDs []int64) error) error {
	return walkBatches(ctx, l.dir, t, n, func(p, name string) (int64, bool) {
		digits, ok := strings.CutSuffix(name, ".log.zst")
		id, err := strconv.ParseInt(digits, 10, 64)
		return id, ok && err == nil && id > 0 && l.path(id) == p
	}, fn)
}

// Delete removes the task's log file; an absent one is not an error.
func (l *ActionLogs) Delete(ctx context.Context, taskID int64) error {
	return removeStored(ctx, func(string) (string, error) { return l.path(taskID), nil }, "", "task log")
}

// zstdFile reads a Zstandard file and releases the decoder and the file
// on Close.
type zstdFile struct {
	zr *zstd.Decoder
	f  *os.File
}

func (z *zstdFile) Read(p []byte) (int, error) { return z.zr.Read(p) }

func (z *zstdFile) Close() error {
	z.zr.Close()
	return z.f.Close()
}
