package blobs_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
)

// TestArtifactsStored lists each artifact with content once (its finished
// zip, its upload under way, or both) in batches, and leaves alone what is
// not where an id puts it: a zip being written, a zip in another id's
// folder, an upload folder that is no id, and files newer than the moment.
func TestArtifactsStored(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewArtifacts(dir)
	is.NoErr(err)
	for _, id := range []int64{7, 300, 301} {
		_, err := a.Append(ctx, id, strings.NewReader("zip"), 10)
		is.NoErr(err)
	}
	for _, id := range []int64{7, 300} {
		_, _, err := a.Commit(ctx, id, 10)
		is.NoErr(err)
	}
	_, err = a.Append(ctx, 7, strings.NewReader("again"), 10) // an upload again: zip and upload
	is.NoErr(err)
	write := func(rel string) {
		p := filepath.Join(dir, rel)
		is.NoErr(os.MkdirAll(filepath.Dir(p), 0o700))
		is.NoErr(os.WriteFile(p, []byte("x"), 0o600))
	}
	write("07/.upload-1.tmp")  // being written
	write("08/7.zip")          // not where id 7's zip goes
	write("uploads/x1/append") // no id
	write("uploads/-4/append") // no id
	write("uploads/0/append")  // no id
	write("README")            // a stranger
	old := time.Now().Add(-time.Hour)
	is.NoErr(filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			return os.Chtimes(p, old, old)
		}
		return err
	}))
	_, err = a.Append(ctx, 555, strings.NewReader("new"), 10) // newer than the moment
	is.NoErr(err)

	var batches [][]int64
	is.NoErr(a.Stored(ctx, time.Now().Add(-time.Minute), 2, func(ids []int64) error {
		batches = append(batches, slices.Clone(ids))
		return nil
	}))
	var all []int64
	for _, b := range batches {
		is.True(len(b) <= 2)
		all = append(all, b...)
	}
	slices.Sort(all)
	is.Equal(all, []int64{7, 300, 301})
}

// TestAvatarsStored lists the stored avatars' hashes written before a
// moment, not an image being written nor a file that is no avatar's name.
func TestAvatarsStored(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAvatars(dir)
	is.NoErr(err)
	hash, err := a.Put(ctx, "image", "user-1", pngOf(t, 20, 20))
	is.NoErr(err)
	for _, name := range []string{".avatar-1.tmp", "not-a-hash.png", strings.Repeat("A", 32) + ".png", strings.Repeat("a", 32)} {
		is.NoErr(os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600))
	}
	old := time.Now().Add(-time.Hour)
	entries, err := os.ReadDir(dir)
	is.NoErr(err)
	for _, e := range entries {
		is.NoErr(os.Chtimes(filepath.Join(dir, e.Name()), old, old))
	}
	newer, err := a.Put(ctx, "image", "user-2", pngOf(t, 30, 20))
	is.NoErr(err)

	var got []string
	is.NoErr(a.Stored(ctx, time.Now().Add(-time.Minute), 10, func(hashes []string) error {
		got = append(got, hashes...)
		return nil
	}))
	is.Equal(got, []string{hash})
	is.True(newer != hash)
}

// pngOf is a w×h PNG of one colour.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{R: uint8(x * 8), G: uint8(y * 8), B: 90, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
