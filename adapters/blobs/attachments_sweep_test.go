package blobs_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
)

// TestAttachmentsStoredAndRemovePartial lists the blobs written before a
// moment in batches, leaving newer files and files that are not the
// store's alone, and removes only the partial uploads older than it.
func TestAttachmentsStoredAndRemovePartial(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAttachments(dir)
	is.NoErr(err)
	old := time.Now().Add(-time.Hour)
	age := func(p string) { is.NoErr(os.Chtimes(p, old, old)) }
	put := func() string {
		id, err := a.NewUUID()
		is.NoErr(err)
		_, _, release, err := a.Put(ctx, id, strings.NewReader("x"), 1)
		is.NoErr(err)
		release()
		return id
	}
	var olds []string
	for range 5 {
		id := put()
		age(filepath.Join(dir, id[0:1], id[1:2], id))
		olds = append(olds, id)
	}
	fresh := put()
	// A UUID out of its place and a stranger are not the store's.
	misplaced := "abcdef01-2345-4678-89ab-cdef01234567"
	is.NoErr(os.MkdirAll(filepath.Join(dir, "0", "0"), 0o700))
	is.NoErr(os.WriteFile(filepath.Join(dir, "0", "0", misplaced), []byte("x"), 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o600))
	age(filepath.Join(dir, "0", "0", misplaced))
	age(filepath.Join(dir, "README"))
	// Two cut-off uploads, one stale and one still being written.
	stale := filepath.Join(dir, "0", "0", ".upload-123.tmp")
	live := filepath.Join(dir, "0", "0", ".upload-456.tmp")
	is.NoErr(os.WriteFile(stale, []byte("part"), 0o600))
	is.NoErr(os.WriteFile(live, []byte("part"), 0o600))
	age(stale)

	var batches [][]string
	is.NoErr(a.Stored(ctx, time.Now().Add(-time.Minute), 2, func(uuids []string) error {
		batches = append(batches, slices.Clone(uuids))
		return nil
	}))
	is.Equal(len(batches), 3) // 2 + 2 + 1
	var got []string
	for _, b := range batches {
		is.True(len(b) <= 2)
		got = append(got, b...)
	}
	slices.Sort(got)
	slices.Sort(olds)
	is.Equal(got, olds) // not fresh, not the misplaced file, not the README
	is.True(!slices.Contains(got, fresh))

	n, err := a.RemovePartial(ctx, time.Now().Add(-time.Minute))
	is.NoErr(err)
	is.Equal(n, 1)
	_, err = os.Stat(stale)
	is.True(os.IsNotExist(err))
	_, err = os.Stat(live)
	is.NoErr(err)
	_, err = os.Stat(filepath.Join(dir, "README"))
	is.NoErr(err)
}

// TestAttachmentsHeldUploadIsNotSwept holds a blob from the start of its
// Put until release, as between its write and its row's commit: the
// sweep of another process (however old the file) neither lists it as an
// orphan nor removes a partial file still held; released, it is listed.
func TestAttachmentsHeldUploadIsNotSwept(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	a, err := blobs.NewAttachments(dir)
	is.NoErr(err)
	id, err := a.NewUUID()
	is.NoErr(err)
	later := time.Now().Add(time.Hour) // every file counts as old
	stored := func() []string {
		var out []string
		is.NoErr(a.Stored(ctx, later, 10, func(uuids []string) error {
			out = append(out, uuids...)
			return nil
		}))
		return out
	}

	// A Put still reading its body holds its partial file.
	body, feed := io.Pipe()
	type result struct {
		release func()
		err     error
	}
	done := make(chan result, 1)
	go func() {
		_, _, release, err := a.Put(ctx, id, body, 1<<20)
		done <- result{release, err}
	}()
	_, err = feed.Write([]byte("partial"))
	is.NoErr(err)
	n, err := a.RemovePartial(ctx, later)
	is.NoErr(err)
	is.Equal(n, 0) // held: its writer is alive
	is.NoErr(feed.Close())
	r := <-done
	is.NoErr(r.err)

	is.Equal(len(stored()), 0) // written but not released: its row may yet commit
	r.release()
	r.release() // releasing twice is releasing once
	is.Equal(stored(), []string{id})
}
