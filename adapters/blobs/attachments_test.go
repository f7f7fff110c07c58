package blobs_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
	"github.com/depothq/depot/domain/errs"
)

func TestAttachmentsRoundTrip(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAttachments(dir)
	is.NoErr(err)

	id, err := a.NewUUID()
	is.NoErr(err)
	is.Equal(len(id), 36)
	is.Equal(id[14], byte('4')) // version 4
	other, err := a.NewUUID()
	is.NoErr(err)
	is.True(other != id)

	n, sum, release, err := a.Put(ctx, id, strings.NewReader("hello"), 5) // exactly the limit fits
	is.NoErr(err)
	release()
	is.Equal(n, int64(5))
	is.Equal(sum, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824") // sha256("hello")
	f, err := a.Open(ctx, id)
	is.NoErr(err)
	data, err := io.ReadAll(f)
	is.NoErr(err)
	is.NoErr(f.Close())
	is.Equal(string(data), "hello")

	is.NoErr(a.Delete(ctx, id))
	is.NoErr(a.Delete(ctx, id)) // deleting twice is fine
	_, err = a.Open(ctx, id)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestAttachmentsTooLargeLeavesNothing(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAttachments(dir)
	is.NoErr(err)
	id, err := a.NewUUID()
	is.NoErr(err)

	_, _, _, err = a.Put(ctx, id, strings.NewReader("123456"), 5)
	is.True(errors.Is(err, errs.ErrTooLarge))
	is.Equal(errs.Message(err), "attachment size exceeds limit 5")
	_, err = a.Open(ctx, id)
	is.True(errors.Is(err, errs.ErrNotFound))
	var files []string
	is.NoErr(filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	}))
	is.Equal(len(files), 0) // no temporary file left behind
}

func TestAttachmentsRefuseNonUUIDNames(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAttachments(filepath.Join(dir, "att"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../secret", "", "ABCDEF00-0000-4000-8000-000000000000", "../../../../etc/passwd",
		"00000000-0000-4000-8000-00000000000/", "00000000-0000-4000-8000-0000000000000"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			_, _, _, err := a.Put(ctx, name, strings.NewReader("x"), 10)
			is.True(errors.Is(err, errs.ErrNotFound))
			_, err = a.Open(ctx, name)
			is.True(errors.Is(err, errs.ErrNotFound))
			is.NoErr(a.Delete(ctx, name))
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "secret")); err != nil {
		t.Fatalf("file outside the folder touched: %v", err)
	}
}

// failingReader fails after its first bytes, as a dropped upload does.
type failingReader struct{ sent bool }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.sent {
		return 0, errs.TooLarge("request body too large")
	}
	f.sent = true
	return copy(p, "abc"), nil
}

func TestAttachmentsReaderErrorKeepsCategory(t *testing.T) {
	is := is.New(t)
	a, err := blobs.NewAttachments(t.TempDir())
	is.NoErr(err)
	id, err := a.NewUUID()
	is.NoErr(err)
	_, _, _, err = a.Put(context.Background(), id, &failingReader{}, 100)
	is.True(errors.Is(err, errs.ErrTooLarge))
	is.Equal(errs.Message(err), "request body too large")
	_, err = a.Open(context.Background(), id)
	is.True(errors.Is(err, errs.ErrNotFound))
}
