package blobs

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
)

// Artifacts keeps the Actions artifacts under one directory: a finished
// artifact as <dir>/<id mod 256>/<id>.zip, and an upload under way in
// <dir>/uploads/<id>/ as its blocks (b-<hex of the block id>), its
// appended chunks (append) and its block list (blocklist, one hex id a
// line). Everything is streamed: no upload or download is held in memory.
type Artifacts struct{ dir string }

var _ ports.ArtifactBlobs = (*Artifacts)(nil)

// NewArtifacts keeps artifacts under dir, creating it readable by the
// server's user only.
func NewArtifacts(dir string) (*Artifacts, error) {
	if err := makeStoreDir(dir, "artifact"); err != nil {
		return nil, err
	}
	return &Artifacts{dir: dir}, nil
}

var errNoArtifact = errs.NotFound("artifact content does not exist")

func (a *Artifacts) final(id int64) string {
	return filepath.Join(a.dir, fmt.Sprintf("%02x", id%256), strconv.FormatInt(id, 10)+".zip")
}

func (a *Artifacts) uploads(id int64) string {
	return filepath.Join(a.dir, "uploads", strconv.FormatInt(id, 10))
}

// writeNew writes at most limit bytes of r to dst through a temporary
// file renamed into place.
func writeNew(ctx context.Context, dst string, r io.Reader, limit int64) (int64, string, error) {
	var n int64
	digest := sha256.New()
	err := placeFile(dst, "artifact", func(f *os.File) error {
		var err error
		n, err = io.Copy(io.MultiWriter(f, digest), io.LimitReader(ctxReader{ctx, r}, limit+1))
		if err != nil {
			return fmt.Errorf("blobs: write artifact: %w", err)
		}
		if n > limit {
			return errs.TooLarge(fmt.Sprintf("artifact size exceeds limit %d", limit))
		}
		return nil
	})
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(digest.Sum(nil)), nil
}

// PutBlock stores one block of an upload under its id.
func (a *Artifacts) PutBlock(ctx context.Context, id int64, blockID string, r io.Reader, limit int64) (int64, error) {
	n, _, err := writeNew(ctx, filepath.Join(a.uploads(id), "b-"+hex.EncodeToString([]byte(blockID))), r, limit)
	return n, err
}

// Append adds r to the upload's appended chunks, which stay within limit
// bytes in all.
func (a *Artifacts) Append(ctx context.Context, id int64, r io.Reader, limit int64) (int64, error) {
	dir := a.uploads(id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("blobs: create artifact folder: %w", err)
	}
	_, n, err := partialUpload{path: filepath.Join(dir, "append"), create: true, sync: true, what: "artifact"}.
		append(ctx, r, limit)
	return n, err
}

// SetBlockList records the order of the upload's blocks.
func (a *Artifacts) SetBlockList(ctx context.Context, id int64, ids []string) error {
	var b strings.Builder
	for _, bid := range ids {
		b.WriteString(hex.EncodeToString([]byte(bid)))
		b.WriteByte('\n')
	}
	_, _, err := writeNew(ctx, filepath.Join(a.uploads(id), "blocklist"), strings.NewReader(b.String()), int64(b.Len()))
	return err
}

// parts opens the upload's parts in order: its blocks by the block list,
// else its appended chunks.
func (a *Artifacts) parts(id int64) ([]string, error) {
	dir := a.uploads(id)
	list, err := os.Open(filepath.Join(dir, "blocklist"))
	if errors.Is(err, fs.ErrNotExist) {
		p := filepath.Join(dir, "append")
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, errs.NotFound("nothing was uploaded")
			}
			return nil, fmt.Errorf("blobs: artifact chunks: %w", err)
		}
		return []string{p}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("blobs: artifact block list: %w", err)
	}
	defer list.Close()
	var out []string
	sc := bufio.NewScanner(list)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			out = append(out, filepath.Join(dir, "b-"+line))
		}
	}
	return out, sc.Err()
}

// Commit makes the upload the artifact's content.
func (a *Artifacts) Commit(ctx context.Context, id int64, limit int64) (int64, string, error) {
	paths, err := a.parts(id)
	if err != nil {
		return 0, "", err
	}
	files := make([]*os.File, 0, len(paths))
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	readers := make([]io.Reader, 0, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			return 0, "", errs.BadRequest("a block of the block list was not uploaded")
		}
		if err != nil {
			return 0, "", fmt.Errorf("blobs: open artifact block: %w", err)
		}
		files = append(files, f)
		readers = append(readers, f)
	}
	n, sum, err := writeNew(ctx, a.final(id), io.MultiReader(readers...), limit)
	if err != nil {
		return 0, "", err
	}
	if err := os.RemoveAll(a.uploads(id)); err != nil {
		return 0, "", fmt.Errorf("blobs: remove artifact upload: %w", err)
	}
	return n, sum, nil
}

// Open reads a committed artifact.
func (a *Artifacts) Open(ctx context.Context, id int64) (io.ReadSeekCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(a.final(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoArtifact
	}
	if err != nil {
		return nil, fmt.Errorf("blobs: open artifact: %w", err)
	}
	return f, nil
}

// Delete removes an artifact's content and any upload under way.
func (a *Artifacts) Delete(ctx context.Context, id int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Remove(a.final(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobs: remove artifact: %w", err)
	}
	if err := os.RemoveAll(a.uploads(id)); err != nil {
		return fmt.Errorf("blobs: remove artifact upload: %w", err)
	}
	return nil
}

// Stored calls fn with the ids of the artifacts that have content (a
// finished zip, or an upload under way) last written before t, each once,
// at most n at a time, for the doctor. Files that are not where an id puts
// them (a zip being written under a temporary name) are skipped.
func (a *Artifacts) Stored(ctx context.Context, t time.Time, n int, fn func(ids []int64) error) error {
	seen := map[int64]bool{}
	uploads := filepath.Join(a.dir, "uploads")
	return walkBatches(ctx, a.dir, t, n, func(p, name string) (int64, bool) {
		id, ok := a.idOf(p, name, uploads)
		if !ok || seen[id] {
			return 0, false
		}
		seen[id] = true
		return id, true
	}, fn)
}

// idOf reads the artifact id a stored file at p (named name) belongs to:
// <dir>/<id mod 256>/<id>.zip, or a part of <dir>/uploads/<id>/.
func (a *Artifacts) idOf(p, name, uploads string) (int64, bool) {
	if rest, ok := strings.CutPrefix(p, uploads+string(filepath.Separator)); ok {
		dir, part, ok := strings.Cut(rest, string(filepath.Separator))
		id, err := strconv.ParseInt(dir, 10, 64)
		if !ok || err != nil || id <= 0 || strings.HasPrefix(part, partialPrefix) || a.uploads(id) != filepath.Join(uploads, dir) {
			return 0, false
		}
		return id, true
	}
	digits, ok := strings.CutSuffix(name, ".zip")
	id, err := strconv.ParseInt(digits, 10, 64)
	if !ok || err != nil || id <= 0 || a.final(id) != p {
		return 0, false
	}
	return id, true
}

// Exists says whether an artifact's content is stored.
func (a *Artifacts) Exists(ctx context.Context, id int64) (bool, error) {
	_, err := os.Stat(a.final(id))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
