package libgit2

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// blobStreamThreshold is the size above which a blob is read through an
// object-database stream (inflated piece by piece) when its storage allows
// it: libgit2 streams loose objects only; packed ones are inflated whole.
const blobStreamThreshold = 1 << 20

// OpenBlob resolves q's ref and opens the file or link at q.Path for
// streaming (ports.GitTrees). A small blob comes from memory and gives the
// repository back at once.
func (s *Storage) OpenBlob(ctx context.Context, p ports.RepoPath, q ports.GitPathQuery) (ports.GitPathResult, io.ReadCloser, error) {
	h, err := s.readRepo(ctx, p)
	if err != nil {
		return ports.GitPathResult{}, nil, err
	}
	res, data, err := s.findBlob(h.repo, q)
	if s.retryFresh(&h, err) {
		res, data, err = s.findBlob(h.repo, q)
	}
	if err != nil || data != nil {
		s.done(h, err)
		if err != nil {
			return ports.GitPathResult{}, nil, err
		}
		return res, &memBlob{r: bytes.NewReader(data)}, nil
	}
	oid, err := git.NewOid(res.Entry.ID)
	if err != nil {
		s.done(h, nil)
		return ports.GitPathResult{}, nil, fmt.Errorf("libgit2: blob id %q: %w", res.Entry.ID, err)
	}
	return res, &blobReader{s: s, h: h, repo: h.repo, id: *oid, size: res.Entry.Size}, nil
}

// memBlob reads a blob kept in memory.
type memBlob struct {
	r      *bytes.Reader
	closed bool
}

// Read reads the blob's next bytes.
func (m *memBlob) Read(p []byte) (int, error) {
	if m.closed {
		return 0, errReaderClosed
	}
	return m.r.Read(p)
}

// WriteTo writes the rest of the blob to w.
func (m *memBlob) WriteTo(w io.Writer) (int64, error) {
	if m.closed {
		return 0, errReaderClosed
	}
	return m.r.WriteTo(w)
}

// Close ends reading.
func (m *memBlob) Close() error {
	m.closed = true
	return nil
}

// findBlob resolves q and describes the file or link at its path, with its
// bytes when it is small enough to keep in memory.
func (s *Storage) findBlob(repo *git.Repository, q ports.GitPathQuery) (ports.GitPathResult, []byte, error) {
	at, err := openPath(repo, q)
	if err != nil {
		return ports.GitPathResult{}, nil, err
	}
	defer at.free()
	if at.entry == nil || at.entry.Type != git.ObjectBlob {
		return ports.GitPathResult{}, nil, errNoPath(at.path, at.rev)
	}
	r := &pathReader{repo: repo, commit: at.commit, blobs: &s.reads.blobs}
	defer r.free()
	e, err := r.entry(at.path, at.entry, false, 0)
	if err != nil {
		return ports.GitPathResult{}, nil, err
	}
	var data []byte
	if e.Size <= blobCacheItemMax {
		if _, data, err = r.blobData(at.entry.Id, true, blobCacheItemMax); err != nil {
			return ports.GitPathResult{}, nil, err
		}
		if data == nil {
			data = []byte{}
		}
	}
	return ports.GitPathResult{Revision: at.rev, Entry: e}, data, nil
}

// blobReader streams one blob. It holds the repository it reads from until
// Close gives it back; nothing is read before the first Read or WriteTo.
type blobReader struct {
	s    *Storage
	h    *pooledRepo
	repo *git.Repository
	id   git.Oid
	size int64

	started, closed bool
	// failed says reading went wrong: the repository is not reused.
	failed bool
	odb    *git.Odb
	// Either stream is open, or obj holds the whole inflated blob in
	// libgit2's memory and data is its unread part (no copy into Go).
	stream *git.OdbReadStream
	obj    *git.OdbObject
	data   []byte
}

var errReaderClosed = errors.New("libgit2: blob reader closed")

func (b *blobReader) start() error {
	if b.closed {
		return errReaderClosed
	}
	if b.started {
		return nil
	}
	b.started = true
	odb, err := b.repo.Odb()
	if err != nil {
		b.failed = true
		return fmt.Errorf("libgit2: open object database: %w", err)
	}
	b.odb = odb
	if b.size > blobStreamThreshold {
		if st, err := odb.NewReadStream(&b.id); err == nil {
			b.stream = st
			return nil
		}
	}
	obj, err := odb.Read(&b.id)
	if err != nil {
		b.failed = true
		return fmt.Errorf("libgit2: read blob %s: %w", b.id.String(), err)
	}
	b.obj, b.data = obj, obj.Data()
	return nil
}

// Read reads the blob's next bytes.
func (b *blobReader) Read(p []byte) (int, error) {
	if err := b.start(); err != nil {
		return 0, err
	}
	if b.stream != nil {
		n, err := b.stream.Read(p)
		if err != nil && !errors.Is(err, io.EOF) {
			b.failed = true
			return n, fmt.Errorf("libgit2: stream blob %s: %w", b.id.String(), err)
		}
		return n, err
	}
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

// WriteTo writes the rest of the blob to w: straight from libgit2's memory
// for an inflated blob, through a buffer for a stream.
func (b *blobReader) WriteTo(w io.Writer) (int64, error) {
	if err := b.start(); err != nil {
		return 0, err
	}
	if b.stream != nil {
		return io.CopyBuffer(w, onlyReader{b}, make([]byte, 64<<10))
	}
	var total int64
	for len(b.data) > 0 {
		chunk := b.data[:min(len(b.data), 256<<10)]
		n, err := w.Write(chunk)
		total += int64(n)
		b.data = b.data[n:]
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// onlyReader hides WriteTo so io.CopyBuffer does not call it back.
type onlyReader struct{ io.Reader }

// Close releases the blob and gives the repository back.
func (b *blobReader) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.data = nil
	if b.stream != nil {
		b.stream.Free()
	}
	if b.obj != nil {
		b.obj.Free()
	}
	if b.odb != nil {
		b.odb.Free()
	}
	if b.failed {
		b.h.repo.Free()
	} else {
		b.s.reads.pool.put(b.h)
	}
	return nil
}

// Blob reads a blob by its full id (ports.GitTrees).
func (s *Storage) Blob(ctx context.Context, p ports.RepoPath, id string, maxContent int64) (ports.GitBlob, error) {
	notFound := errs.NotFound("blob " + id + " does not exist")
	if len(id) != 40 || !repository.IsHex(id) {
		return ports.GitBlob{}, notFound
	}
	oid, err := git.NewOid(strings.ToLower(id))
	if err != nil {
		return ports.GitBlob{}, notFound
	}
	var out ports.GitBlob
	err = s.withReadRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		out, err = readBlob(repo, &s.reads.blobs, oid, maxContent)
		return err
	})
	return out, err
}

// readBlob implements Blob on an open repository.
func readBlob(repo *git.Repository, blobs *blobCache, oid *git.Oid, maxContent int64) (ports.GitBlob, error) {
	id := oid.String()
	odb, err := repo.Odb()
	if err != nil {
		return ports.GitBlob{}, fmt.Errorf("libgit2: open object database: %w", err)
	}
	defer odb.Free()
	// The cache is shared by every repository and says only what an id
	// names, not who holds it: a cached blob read through a repository that
	// does not have it would hand out another repository's file.
	if _, known := blobs.get(oid); known {
		if !odb.Exists(oid) {
			return ports.GitBlob{}, errs.NotFound("blob " + id + " does not exist")
		}
	} else {
		// Only blobs enter the cache: anything else is checked here.
		size, kind, err := odb.ReadHeader(oid)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return ports.GitBlob{}, errs.NotFound("blob " + id + " does not exist")
			}
			return ports.GitBlob{}, fmt.Errorf("libgit2: read header of %s: %w", id, err)
		}
		if kind != git.ObjectBlob {
			return ports.GitBlob{}, errs.NotFound("blob " + id + " does not exist")
		}
		blobs.put(oid, cachedBlob{size: int64(size)})
	}
	size, data, err := blobs.blobData(odb, oid, true, maxContent)
	if err != nil {
		return ports.GitBlob{}, err
	}
	out := ports.GitBlob{ID: id, Size: size, Content: data}
	if out.Content == nil && size <= maxContent {
		out.Content = []byte{}
	}
	return out, nil
}
