package blobs

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/depothq/depot/domain/errs"
)

// partialUpload is a file an upload under way grows by appended chunks
// (an Actions artifact's chunks, a container blob upload) until it is
// committed elsewhere or removed. A chunk is kept whole or not at all.
type partialUpload struct {
	path string
	// create makes the file when it is absent; else an absent file is the
	// fs.ErrNotExist of opening it (wrapped).
	create bool
	// sync flushes each chunk to the disk before answering.
	sync bool
	// what names the upload in errors ("artifact", "package file").
	what string
}

// append streams r onto the end of the file, refusing to grow it past
// limit bytes (errs.ErrTooLarge naming the limit), and returns its size
// before and the bytes appended; on any failure the file is truncated back
// to its size before.
func (p partialUpload) append(ctx context.Context, r io.Reader, limit int64) (before, n int64, err error) {
	flags := os.O_WRONLY | os.O_APPEND
	if p.create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(p.path, flags, 0o600)
	if err != nil {
		return 0, 0, fmt.Errorf("blobs: open %s upload: %w", p.what, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("blobs: stat %s upload: %w", p.what, err)
	}
	before = st.Size()
	room := max(limit-before, 0)
	n, err = io.Copy(f, io.LimitReader(ctxReader{ctx, r}, room+1))
	if err == nil && n > room {
		err = errs.TooLarge(fmt.Sprintf("%s size exceeds limit %d", p.what, limit))
	}
	if err == nil && p.sync {
		err = f.Sync()
	}
	if err != nil {
		_ = f.Truncate(before)
		return before, 0, err
	}
	return before, n, nil
}
