package blobs_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
	"github.com/depothq/depot/domain/errs"
)

// TestPackageBlobs stores bytes under their SHA-256 once however often
// they are put, refuses more than the limit leaving nothing, reads them
// back, lists the unheld ones for the sweep, removes cut-off uploads and
// refuses sums that are not 64 hex digits.
func TestPackageBlobs(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	p, err := blobs.NewPackages(dir)
	is.NoErr(err)
	sum := sha256.Sum256([]byte("hello"))
	want := hex.EncodeToString(sum[:])

	b, release, err := p.Put(ctx, strings.NewReader("hello"), 5)
	is.NoErr(err)
	is.Equal(b.SHA256, want)
	is.Equal(b.Size, int64(5))
	is.Equal(b.MD5, "5d41402abc4b2a76b9719d911017c592")
	is.Equal(b.SHA1, "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")
	is.Equal(len(b.SHA512), 128)
	// Held until released: the sweep does not list it.
	var listed []string
	collect := func(sums []string) error { listed = append(listed, sums...); return nil }
	is.NoErr(p.Stored(ctx, time.Now().Add(time.Hour), 10, collect))
	is.Equal(len(listed), 0)
	release()
	b2, release2, err := p.Put(ctx, strings.NewReader("hello"), 5)
	is.NoErr(err)
	release2()
	is.Equal(b2, b)
	listed = nil
	is.NoErr(p.Stored(ctx, time.Now().Add(time.Hour), 10, collect))
	is.Equal(listed, []string{want}) // stored once

	_, _, err = p.Put(ctx, strings.NewReader("hello!"), 5)
	is.True(errors.Is(err, errs.ErrTooLarge))

	r, err := p.Open(ctx, want)
	is.NoErr(err)
	data, err := io.ReadAll(r)
	is.NoErr(err)
	is.NoErr(r.Close())
	is.Equal(string(data), "hello")
	for _, bad := range []string{"", "../x", strings.Repeat("G", 64), strings.ToUpper(want)} {
		_, err = p.Open(ctx, bad)
		is.True(errors.Is(err, errs.ErrNotFound))
	}

	// A cut-off upload's partial file goes; nothing else does.
	partial := filepath.Join(dir, "incoming", ".upload-123.tmp")
	is.NoErr(os.WriteFile(partial, []byte("half"), 0o600))
	n, err := p.RemovePartial(ctx, time.Now().Add(time.Hour))
	is.NoErr(err)
	is.Equal(n, 1)
	_, err = os.Stat(partial)
	is.True(errors.Is(err, os.ErrNotExist))

	is.NoErr(p.Delete(ctx, want))
	is.NoErr(p.Delete(ctx, want)) // absent is fine
	_, err = p.Open(ctx, want)
	is.True(errors.Is(err, errs.ErrNotFound))
}
