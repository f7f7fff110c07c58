package blobs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TestTempFilesRemoveStaysInDataDir refuses to remove what is no temporary
// file of the data directory (a path leaving it, an absolute one, another
// file's name), reaches nothing through a symbolic link (a folder of the
// data directory replaced by a link after the listing), and leaves a file
// written again since it was listed.
func TestTempFilesRemoveStaysInDataDir(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	data, outside := t.TempDir(), t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	write := func(p string) {
		t.Helper()
		is.NoErr(os.MkdirAll(filepath.Dir(p), 0o700))
		is.NoErr(os.WriteFile(p, []byte("x"), 0o600))
		is.NoErr(os.Chtimes(p, old, old))
	}
	victim := filepath.Join(outside, ".avatar-1.tmp")
	write(victim)
	s := blobs.NewTempFiles(data)
	for _, name := range []string{"../" + filepath.Base(outside) + "/.avatar-1.tmp", victim, "avatars/../avatars/.avatar-1.tmp",
		"avatars/notes.txt", "repos.db", ""} {
		err := s.Remove(ctx, ports.TempFile{Name: name, Modified: old})
		is.True(errors.Is(err, errs.ErrInvalid)) // refused
	}

	write(filepath.Join(data, "avatars", ".avatar-2.tmp"))
	var listed []ports.TempFile
	is.NoErr(s.Stale(ctx, time.Now().Add(-time.Hour), 10, func(files []ports.TempFile) error {
		listed = append(listed, files...)
		return nil
	}))
	is.Equal(len(listed), 1)
	is.Equal(listed[0].Name, "avatars/.avatar-2.tmp")

	// The folder becomes a link to one outside holding the same name.
	is.NoErr(os.Rename(filepath.Join(data, "avatars"), filepath.Join(data, "avatars-moved")))
	is.NoErr(os.Rename(victim, filepath.Join(outside, ".avatar-2.tmp")))
	is.NoErr(os.Chtimes(filepath.Join(outside, ".avatar-2.tmp"), listed[0].Modified, listed[0].Modified))
	is.NoErr(os.Symlink(outside, filepath.Join(data, "avatars")))
	err := s.Remove(ctx, listed[0])
	is.True(err != nil) // os.Root refuses the link out
	_, err = os.Stat(filepath.Join(outside, ".avatar-2.tmp"))
	is.NoErr(err)

	// Written again since the listing: left.
	is.NoErr(os.Remove(filepath.Join(data, "avatars")))
	is.NoErr(os.Rename(filepath.Join(data, "avatars-moved"), filepath.Join(data, "avatars")))
	is.NoErr(os.WriteFile(filepath.Join(data, "avatars", ".avatar-2.tmp"), []byte("again"), 0o600))
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Stat(filepath.Join(data, "avatars", ".avatar-2.tmp"))
	is.NoErr(err)
	// As listed: removed.
	is.NoErr(os.Chtimes(filepath.Join(data, "avatars", ".avatar-2.tmp"), listed[0].Modified, listed[0].Modified))
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Stat(filepath.Join(data, "avatars", ".avatar-2.tmp"))
	is.True(os.IsNotExist(err))
}
