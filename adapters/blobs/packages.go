package blobs

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/ports"
)

// Packages keeps package blobs under one directory, content-addressed:
// each file is named by the SHA-256 of its bytes and spread over two
// levels of sub-directories ("ab/cd/abcd…"), so equal files of any
// version or owner are stored once.
type Packages struct{ dir string }

var _ ports.PackageBlobs = (*Packages)(nil)

// NewPackages keeps package blobs under dir, creating it readable by the
// server's user only.
func NewPackages(dir string) (*Packages, error) {
	if err := makeStoreDir(dir, "package"); err != nil {
		return nil, err
	}
	return &Packages{dir: dir}, nil
}

var errNoPackageBlob = errs.NotFound("package blob does not exist")

// path is where the blob sum lives; only 64 lower-case hex digits are
// accepted, so nothing else reaches the file system.
func (p *Packages) path(sum string) (string, error) {
	if len(sum) != 64 {
		return "", errNoPackageBlob
	}
	for i := 0; i < len(sum); i++ {
		if c := sum[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", errNoPackageBlob
		}
	}
	return filepath.Join(p.dir, sum[0:2], sum[2:4], sum), nil
}

// Put streams at most limit bytes from r to a temporary file while
// computing its MD5, SHA-1, SHA-256 and SHA-512 (concurrently, in one
// pass: copyDigested), syncs it and renames it
// to its SHA-256's place (replacing an equal blob stored before), then
// syncs the directory. Nothing is buffered whole. The file stays held (an
// flock the kernel drops if the process dies) until release, so a sweep
// in another process leaves an upload whose row is not yet committed
// alone. More than limit bytes is errs.ErrTooLarge and leaves nothing.
func (p *Packages) Put(ctx context.Context, r io.Reader, limit int64) (b packages.Blob, release func(), err error) {
	if err := ctx.Err(); err != nil {
		return b, nil, err
	}
	incoming := filepath.Join(p.dir, "incoming")
	if err := os.MkdirAll(incoming, 0o700); err != nil {
		return b, nil, fmt.Errorf("blobs: create package folder: %w", err)
	}
	tmp, err := os.CreateTemp(incoming, partialPrefix+"*"+partialSuffix)
	if err != nil {
		return b, nil, fmt.Errorf("blobs: create package blob: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
			_ = tmp.Close()
		}
	}()
	if err = hold(tmp); err != nil {
		return b, nil, fmt.Errorf("blobs: hold package blob: %w", err)
	}
	n, sums, err := copyDigested(tmp, io.LimitReader(ctxReader{ctx, r}, limit+1))
	if err != nil {
		return b, nil, fmt.Errorf("blobs: write package blob: %w", err)
	}
	if n > limit {
		return b, nil, errs.TooLarge(fmt.Sprintf("package file size exceeds limit %d", limit))
	}
	if err = tmp.Sync(); err != nil {
		return b, nil, fmt.Errorf("blobs: sync package blob: %w", err)
	}
	b = packages.Blob{Size: n, MD5: sums.MD5, SHA1: sums.SHA1, SHA256: sums.SHA256, SHA512: sums.SHA512}
	dst, _ := p.path(b.SHA256)
	if err = os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return b, nil, fmt.Errorf("blobs: create package folder: %w", err)
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return b, nil, fmt.Errorf("blobs: store package blob: %w", err)
	}
	syncDir(filepath.Dir(dst))
	var once sync.Once
	return b, func() { once.Do(func() { _ = tmp.Close() }) }, nil
}

// Open reads the blob sum.
func (p *Packages) Open(ctx context.Context, sum string) (io.ReadSeekCloser, error) {
	return openStored(ctx, p.path, sum, errNoPackageBlob, "package blob")
}

// Delete removes the blob sum; an absent one is not an error.
func (p *Packages) Delete(ctx context.Context, sum string) error {
	return removeStored(ctx, p.path, sum, "package blob")
}

// Stored calls fn with the sums of the blobs last written before t and
// not held, at most n at a time; files not where their name puts them are
// skipped.
func (p *Packages) Stored(ctx context.Context, t time.Time, n int, fn func(sums []string) error) error {
	return storedBefore(ctx, p.dir, t, n, p.path, fn)
}

// RemovePartial removes the temporary files of uploads last written
// before t whose writer is gone.
func (p *Packages) RemovePartial(ctx context.Context, t time.Time) (int, error) {
	return removePartialBefore(ctx, p.dir, t)
}
