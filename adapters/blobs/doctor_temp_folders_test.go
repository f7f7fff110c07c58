//go:build unix

package blobs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/sys/unix"

	"github.com/depothq/depot/adapters/blobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TestTempFoldersRemoveStaysInDataDir refuses a folder's name that no
// folder rule places (and a dump folder's name given as a file's), leaves
// a dump folder held by its writer, one written in since it was listed,
// and one replaced by a link after the listing, and removes the one as
// listed without following the link it holds.
func TestTempFoldersRemoveStaysInDataDir(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	data, outside := t.TempDir(), t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	s := blobs.NewTempFiles(data)
	for _, f := range []ports.TempFile{{Name: "avatars/.avatar-1.tmp", Folder: true}, {Name: "repos/.dump-1", Folder: true},
		{Name: "../.dump-1", Folder: true}, {Name: ".dump-", Folder: true}, {Name: ".dump-1"}} {
		f.Modified = old
		err := s.Remove(ctx, f)
		is.True(errors.Is(err, errs.ErrInvalid)) // refused
	}

	dir := filepath.Join(data, ".dump-1")
	is.NoErr(os.MkdirAll(dir, 0o700))
	is.NoErr(os.WriteFile(filepath.Join(outside, "depot.db"), []byte("not the site's"), 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "depot.db"), []byte("copy"), 0o600))
	is.NoErr(os.Symlink(filepath.Join(outside, "depot.db"), filepath.Join(dir, "link")))
	is.NoErr(os.Chtimes(filepath.Join(dir, "depot.db"), old, old))
	is.NoErr(os.Chtimes(dir, old, old))
	// The link itself is new: the folder was last written now.
	stale := func() []ports.TempFile {
		t.Helper()
		var listed []ports.TempFile
		is.NoErr(s.Stale(ctx, time.Now().Add(-time.Hour), 10, func(files []ports.TempFile) error {
			listed = append(listed, files...)
			return nil
		}))
		return listed
	}
	is.Equal(len(stale()), 0)
	is.NoErr(os.Remove(filepath.Join(dir, "link")))
	is.NoErr(os.Chtimes(dir, old, old))
	listed := stale()
	is.Equal(len(listed), 1)
	is.Equal(listed[0], ports.TempFile{Name: ".dump-1", Modified: listed[0].Modified, Folder: true})
	is.True(listed[0].Modified.Equal(old))

	// Held by its writer (a shared lock, as a dump takes): neither listed
	// nor removed.
	lock, err := os.Open(dir)
	is.NoErr(err)
	is.NoErr(syscall.Flock(int(lock.Fd()), syscall.LOCK_SH))
	is.Equal(len(stale()), 0)
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Stat(filepath.Join(dir, "depot.db"))
	is.NoErr(err)
	is.NoErr(lock.Close())

	// Written in since the listing: left.
	is.NoErr(os.WriteFile(filepath.Join(dir, "depot.db-journal"), []byte("x"), 0o600))
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Stat(filepath.Join(dir, "depot.db"))
	is.NoErr(err)
	is.NoErr(os.Remove(filepath.Join(dir, "depot.db-journal")))
	is.NoErr(os.Chtimes(dir, old, old))

	// Replaced by a link to a folder outside, as old: left, and so is
	// what the link points to.
	is.NoErr(os.Rename(dir, filepath.Join(data, "moved")))
	is.NoErr(os.Chtimes(outside, old, old))
	is.NoErr(os.Chtimes(filepath.Join(outside, "depot.db"), old, old))
	is.NoErr(os.Symlink(outside, dir))
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Stat(filepath.Join(outside, "depot.db"))
	is.NoErr(err)
	is.NoErr(os.Remove(dir))
	is.NoErr(os.Rename(filepath.Join(data, "moved"), dir))

	// As listed, holding a link out (made and dated as the rest): removed
	// with what it holds, the link's target kept.
	is.NoErr(os.Symlink(filepath.Join(outside, "depot.db"), filepath.Join(dir, "link")))
	at := unix.NsecToTimespec(old.UnixNano())
	is.NoErr(unix.UtimesNanoAt(unix.AT_FDCWD, filepath.Join(dir, "link"), []unix.Timespec{at, at}, unix.AT_SYMLINK_NOFOLLOW))
	is.NoErr(os.Chtimes(dir, old, old))
	is.NoErr(s.Remove(ctx, listed[0]))
	_, err = os.Lstat(dir)
	is.True(os.IsNotExist(err))
	_, err = os.Stat(filepath.Join(outside, "depot.db"))
	is.NoErr(err)
}
