package libgit2_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestSweepIncoming removes the quarantines unchanged for the age bound and
// keeps the ones a push still writes to, whatever their directory's age.
func TestSweepIncoming(t *testing.T) {
	is := is.New(t)
	s, root := newStorage(t)
	objects := filepath.Join(root, "alice", "repo.git", "objects")
	old := time.Now().Add(-2 * time.Hour)
	quarantine := func(name string, fileAge time.Time) string {
		dir := filepath.Join(objects, "tmp_objdir-incoming-"+name)
		is.NoErr(os.MkdirAll(filepath.Join(dir, "pack"), 0o755))
		f := filepath.Join(dir, "pack", "tmp_pack_x")
		is.NoErr(os.WriteFile(f, []byte("PACK"), 0o644))
		is.NoErr(os.Chtimes(f, fileAge, fileAge))
		is.NoErr(os.Chtimes(filepath.Join(dir, "pack"), old, old))
		is.NoErr(os.Chtimes(dir, old, old))
		return dir
	}
	stale := quarantine("stale", old)
	writing := quarantine("writing", time.Now()) // an old directory, a pack still growing
	// Not a quarantine, and not in a repository: left alone.
	is.NoErr(os.MkdirAll(filepath.Join(objects, "pack"), 0o755))
	trashed := filepath.Join(root, ".trash", "x.git", "objects", "tmp_objdir-incoming-y")
	is.NoErr(os.MkdirAll(trashed, 0o755))
	is.NoErr(os.Chtimes(trashed, old, old))

	n, err := s.SweepIncoming(context.Background(), time.Hour)
	is.NoErr(err)
	is.Equal(n, 1)
	_, err = os.Stat(stale)
	is.True(os.IsNotExist(err)) // removed
	_, err = os.Stat(writing)
	is.NoErr(err) // kept: changed within the hour
	_, err = os.Stat(filepath.Join(objects, "pack"))
	is.NoErr(err)
	_, err = os.Stat(trashed)
	is.NoErr(err)

	n, err = s.SweepIncoming(context.Background(), 0)
	is.NoErr(err)
	is.Equal(n, 1) // an age bound of 0 takes everything
	_, err = os.Stat(writing)
	is.True(os.IsNotExist(err))
}
