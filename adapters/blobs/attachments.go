package blobs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Attachments keeps issue and comment attachments under one directory, one
// file per attachment named by its UUID and spread over two levels of
// sub-directories (as Gitea's "a/b/abcd…" layout) so that no directory
// grows without bound.
type Attachments struct{ dir string }

var _ ports.AttachmentBlobs = (*Attachments)(nil)

// NewAttachments keeps attachments under dir, creating it readable by the
// server's user only.
func NewAttachments(dir string) (*Attachments, error) {
	if err := makeStoreDir(dir, "attachment"); err != nil {
		return nil, err
	}
	return &Attachments{dir: dir}, nil
}

// errNoAttachment answers an absent (or malformed) UUID.
var errNoAttachment = errs.NotFound("attachment does not exist")

// NewUUID makes a random version 4 UUID.
func (a *Attachments) NewUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("blobs: random UUID: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	s := hex.EncodeToString(b[:])
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:], nil
}

// path is where the attachment uuid lives. Only canonical lower-case UUIDs
// are accepted: the name comes from a request and must never reach the
// file system as anything but 32 hex digits and four dashes.
func (a *Attachments) path(uuid string) (string, error) {
	if !validUUID(uuid) {
		return "", errNoAttachment
	}
	return filepath.Join(a.dir, uuid[0:1], uuid[1:2], uuid), nil
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}

// Put writes at most limit bytes from r under uuid: to a temporary file,
// synced, then renamed into place (and the directory synced), so a reader
// never sees a partial attachment and an acknowledged one survives a
// crash. More than limit bytes is errs.ErrTooLarge and leaves nothing
// behind; an error reading r is returned wrapped (its category kept).
//
// The file is held (an exclusive flock, which the kernel drops when the
// process dies) from its creation until release is called, so that the
// sweep of another process on the same data directory leaves an upload
// being written, or written and not yet committed, alone.
func (a *Attachments) Put(ctx context.Context, uuid string, r io.Reader, limit int64) (n int64, sum string, release func(), err error) {
	if err := ctx.Err(); err != nil {
		return 0, "", nil, err
	}
	dst, err := a.path(uuid)
	if err != nil {
		return 0, "", nil, err
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, "", nil, fmt.Errorf("blobs: create attachment folder: %w", err)
	}
	tmp, err := os.CreateTemp(dir, partialPrefix+"*"+partialSuffix)
	if err != nil {
		return 0, "", nil, fmt.Errorf("blobs: create attachment: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
			_ = tmp.Close()
		}
	}()
	if err = hold(tmp); err != nil {
		return 0, "", nil, fmt.Errorf("blobs: hold attachment: %w", err)
	}
	// One byte past the limit tells "exactly limit" from "more".
	digest := sha256.New()
	n, err = io.Copy(io.MultiWriter(tmp, digest), io.LimitReader(ctxReader{ctx, r}, limit+1))
	if err != nil {
		return 0, "", nil, fmt.Errorf("blobs: write attachment: %w", err)
	}
	if n > limit {
		return 0, "", nil, errs.TooLarge(fmt.Sprintf("attachment size exceeds limit %d", limit))
	}
	if err = tmp.Sync(); err != nil {
		return 0, "", nil, fmt.Errorf("blobs: sync attachment: %w", err)
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return 0, "", nil, fmt.Errorf("blobs: store attachment: %w", err)
	}
	syncDir(dir)
	var once sync.Once
	return n, hex.EncodeToString(digest.Sum(nil)), func() { once.Do(func() { _ = tmp.Close() }) }, nil
}

// syncDir makes a rename in dir durable; a failure only weakens durability
// across a power loss, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// ctxReader stops a long upload when the request goes away.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Open reads the attachment uuid; an absent one is errs.ErrNotFound.
func (a *Attachments) Open(ctx context.Context, uuid string) (io.ReadSeekCloser, error) {
	return openStored(ctx, a.path, uuid, errNoAttachment, "attachment")
}

// Delete removes the attachment uuid; an absent one is not an error, so a
// retried cleanup succeeds.
func (a *Attachments) Delete(ctx context.Context, uuid string) error {
	return removeStored(ctx, a.path, uuid, "attachment")
}

// Stored calls fn with the UUIDs of the stored attachments last written
// before t and not held by a Put whose row may still commit, at most n at
// a time. Files that are not where their UUID puts them are not the
// store's and are skipped.
func (a *Attachments) Stored(ctx context.Context, t time.Time, n int, fn func(uuids []string) error) error {
	return storedBefore(ctx, a.dir, t, n, a.path, fn)
}

// RemovePartial removes the temporary files of uploads last written
// before t whose writer is gone (no process holds them).
func (a *Attachments) RemovePartial(ctx context.Context, t time.Time) (int, error) {
	return removePartialBefore(ctx, a.dir, t)
}
