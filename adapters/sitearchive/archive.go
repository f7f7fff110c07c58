// Package sitearchive reads and writes site archives (`depot dump`,
// `depot restore`) and the data directory's files they hold: a tar stream,
// compressed with zstd (github.com/klauspost/compress/zstd) or gzip, or
// plain.
package sitearchive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Compression names how an archive is compressed.
type Compression string

// The compressions a dump may use.
const (
	Zstd Compression = "zstd"
	Gzip Compression = "gzip"
	None Compression = "none"
)

// ParseCompression checks a --compress value.
func ParseCompression(s string) (Compression, error) {
	switch c := Compression(s); c {
	case Zstd, Gzip, None:
		return c, nil
	}
	return "", fmt.Errorf("%w: unknown compression %q (want zstd, gzip or none)", errs.ErrBadRequest, s)
}

// Writer writes an archive (ports.SiteArchiveWriter).
type Writer struct {
	tw    *tar.Writer
	comp  io.WriteCloser // nil without compression
	buf   *bufio.Writer
	mtime time.Time
	// Written counts the bytes of content added so far.
	Written int64
}

var _ ports.SiteArchiveWriter = (*Writer)(nil)

// NewWriter writes an archive to w, compressed as c.
func NewWriter(w io.Writer, c Compression) (*Writer, error) {
	aw := &Writer{buf: bufio.NewWriterSize(w, 1<<20), mtime: time.Now().UTC().Truncate(time.Second)}
	var out io.Writer = aw.buf
	switch c {
	case Zstd:
		// Level "default" compresses text (the database) about as well as
		// gzip -9 at several times gzip's speed; packs are stored as is.
		enc, err := zstd.NewWriter(aw.buf, zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			return nil, err
		}
		aw.comp, out = enc, enc
	case Gzip:
		gz := gzip.NewWriter(aw.buf)
		aw.comp, out = gz, gz
	}
	aw.tw = tar.NewWriter(out)
	return aw, nil
}

// AddFile adds a regular file of exactly size bytes read from r.
func (w *Writer) AddFile(name string, mode fs.FileMode, size int64, r io.Reader) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: int64(mode.Perm()), Size: size,
		ModTime: w.mtime, Format: tar.FormatPAX}
	if err := w.tw.WriteHeader(hdr); err != nil {
		return err
	}
	n, err := io.CopyN(w.tw, r, size)
	w.Written += n
	if err != nil {
		return fmt.Errorf("sitearchive: %s: %w (it changed while it was read?)", name, err)
	}
	return nil
}

// Close ends the archive; the underlying writer stays open.
func (w *Writer) Close() error {
	err := w.tw.Close()
	if w.comp != nil {
		err = errors.Join(err, w.comp.Close())
	}
	return errors.Join(err, w.buf.Flush())
}

// Reader reads an archive (ports.SiteArchiveReader).
type Reader struct {
	tr    *tar.Reader
	close func()
}

var _ ports.SiteArchiveReader = (*Reader)(nil)

// zstdMagic and gzipMagic start compressed streams.
var (
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	gzipMagic = []byte{0x1f, 0x8b}
)

// NewReader reads an archive from r, finding its compression from its
// first bytes.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, err := br.Peek(4)
	if err != nil && len(head) == 0 {
		return nil, fmt.Errorf("%w: the archive is empty", errs.ErrBadRequest)
	}
	ar := &Reader{close: func() {}}
	var in io.Reader = br
	switch {
	case bytes.HasPrefix(head, zstdMagic):
		dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errs.ErrBadRequest, err)
		}
		ar.close, in = dec.Close, dec
	case bytes.HasPrefix(head, gzipMagic):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: the archive is damaged: %v", errs.ErrBadRequest, err)
		}
		in = gz
	}
	ar.tr = tar.NewReader(in)
	return ar, nil
}

// Next returns the next regular file and its content, io.EOF after the
// last. Names are checked: a name that would leave the directory it is
// extracted into, or any other kind of entry, is refused.
func (r *Reader) Next() (ports.SiteArchiveEntry, io.Reader, error) {
	for {
		hdr, err := r.tr.Next()
		if err == io.EOF {
			return ports.SiteArchiveEntry{}, nil, io.EOF
		}
		if err != nil {
			return ports.SiteArchiveEntry{}, nil, damaged(err)
		}
		switch hdr.Typeflag {
		case tar.TypeReg:
		case tar.TypeDir:
			continue
		default:
			return ports.SiteArchiveEntry{}, nil, fmt.Errorf("%w: the archive holds %q, which is not a regular file", errs.ErrBadRequest, hdr.Name)
		}
		if err := CheckName(hdr.Name); err != nil {
			return ports.SiteArchiveEntry{}, nil, err
		}
		if hdr.Size < 0 {
			return ports.SiteArchiveEntry{}, nil, fmt.Errorf("%w: %q has a negative size", errs.ErrBadRequest, hdr.Name)
		}
		return ports.SiteArchiveEntry{Name: hdr.Name, Mode: fs.FileMode(hdr.Mode).Perm(), Size: hdr.Size},
			readErrors{r.tr}, nil
	}
}

// Close releases the decompressor.
func (r *Reader) Close() { r.close() }

// readErrors marks the errors of reading an entry's content as the
// archive's damage.
type readErrors struct{ r io.Reader }

func (e readErrors) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		err = damaged(err)
	}
	return n, err
}

// damaged says that the archive cannot be read on.
func damaged(err error) error {
	if errors.Is(err, errs.ErrBadRequest) {
		return err
	}
	return fmt.Errorf("%w: the archive is damaged or cut short: %v", errs.ErrBadRequest, err)
}

// CheckName refuses an entry name that is not a clean relative path.
func CheckName(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") || strings.ContainsRune(name, 0) ||
		path.Clean(name) != name || name == ".." || strings.HasPrefix(name, "../") {
		return fmt.Errorf("%w: the archive holds an unsafe name %q", errs.ErrBadRequest, name)
	}
	return nil
}
