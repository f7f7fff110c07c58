package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// ContainerUploads keeps the container registry's blob uploads in progress
// under one directory, a file per upload named by its id, apart from the
// package blobs: nothing in it is a blob until committed into them.
type ContainerUploads struct{ dir string }

var _ ports.ContainerUploads = (*ContainerUploads)(nil)

// NewContainerUploads keeps uploads under dir, creating it readable by the
// server's user only.
func NewContainerUploads(dir string) (*ContainerUploads, error) {
	if err := makeStoreDir(dir, "container upload"); err != nil {
		return nil, err
	}
	return &ContainerUploads{dir: dir}, nil
}

var errNoUpload = errs.NotFound("blob upload unknown to registry")

// path is where upload id lives; ids are digits, lower-case hex and dashes
// only, so nothing else reaches the file system.
func (u *ContainerUploads) path(id string) (string, error) {
	if id == "" || len(id) > 80 {
		return "", errNoUpload
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') && c != '-' {
			return "", errNoUpload
		}
	}
	return filepath.Join(u.dir, id), nil
}

// Create starts an empty upload.
func (u *ContainerUploads) Create(ctx context.Context, id string) error {
	p, err := u.path(id)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("blobs: create container upload: %w", err)
	}
	return f.Close()
}

// Size is the upload's length so far.
func (u *ContainerUploads) Size(ctx context.Context, id string) (int64, error) {
	p, err := u.path(id)
	if err != nil {
		return 0, err
	}
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, errNoUpload
	}
	if err != nil {
		return 0, fmt.Errorf("blobs: stat container upload: %w", err)
	}
	return st.Size(), nil
}

// Append streams r onto the upload's end; growing past limit truncates
// back to where it was and is errs.ErrTooLarge.
func (u *ContainerUploads) Append(ctx context.Context, id string, r io.Reader, limit int64) (int64, error) {
	p, err := u.path(id)
	if err != nil {
		return 0, err
	}
	before, n, err := partialUpload{path: p, what: "package file"}.append(ctx, r, limit)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, errNoUpload
	}
	return before + n, err
}

// Open reads the upload.
func (u *ContainerUploads) Open(ctx context.Context, id string) (io.ReadCloser, error) {
	return openStored(ctx, u.path, id, errNoUpload, "container upload")
}

// Remove drops an upload.
func (u *ContainerUploads) Remove(ctx context.Context, id string) error {
	return removeStored(ctx, u.path, id, "container upload")
}

// RemoveBefore drops the uploads last written before t.
func (u *ContainerUploads) RemoveBefore(ctx context.Context, t time.Time) (int, error) {
	entries, err := os.ReadDir(u.dir)
	if err != nil {
		return 0, fmt.Errorf("blobs: list container uploads: %w", err)
	}
	n := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(t) {
			continue
		}
		if err := os.Remove(filepath.Join(u.dir, e.Name())); err == nil {
			n++
		}
	}
	return n, nil
}
