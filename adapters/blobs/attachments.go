package blobs

// PLACEHOLDER: written by a helper (attachments).

import (
	"context"
	"errors"
	"io"

	"github.com/depothq/depot/ports"
)

// Attachments keeps issue and comment attachments under one directory.
type Attachments struct{ dir string }

var _ ports.AttachmentBlobs = (*Attachments)(nil)

// NewAttachments keeps attachments under dir.
func NewAttachments(dir string) (*Attachments, error) { return &Attachments{dir: dir}, nil }

var errTodo = errors.New("not built yet")

// Put stores r under uuid.
func (a *Attachments) Put(ctx context.Context, uuid string, r io.Reader, limit int64) (int64, error) {
	return 0, errTodo
}

// Open reads the attachment uuid.
func (a *Attachments) Open(ctx context.Context, uuid string) (io.ReadSeekCloser, error) {
	return nil, errTodo
}

// Delete removes the attachment uuid.
func (a *Attachments) Delete(ctx context.Context, uuid string) error { return errTodo }
