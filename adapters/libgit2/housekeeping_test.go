package libgit2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// TestHousekeepingCollectsPushedPacks: two packs (two pushes, say) and a
// loose object nothing reaches become one pack with its bitmap and a
// commit-graph; every commit is still there, and so is the unreachable
// object (it is recent: a push could be about to name it).
func TestHousekeepingCollectsPushedPacks(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "kept"}
	is.NoErr(s.Init(ctx, p, "main"))
	dir := repoDir(root, p)

	st, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st, repository.ObjectStore{}) // a new repository: nothing to do
	is.True(!repository.NeedsHousekeeping(st))

	first := commit(t, s, p, "main", "first", file("a.txt", "one"))
	runGit(t, dir, "repack", "-q", "-d")
	second := commit(t, s, p, "main", "second", file("b.txt", "two"))
	runGit(t, dir, "repack", "-q", "-d")
	stray := runGit(t, dir, "hash-object", "-w", "--stdin")
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 2)
	is.True(!st.Bitmap)
	is.True(repository.NeedsHousekeeping(st))

	is.NoErr(s.CollectGarbage(ctx, p))
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st, repository.ObjectStore{Packs: 1, Bitmap: true})
	is.True(!repository.NeedsHousekeeping(st))
	_, err = os.Stat(filepath.Join(dir, "objects", "info", "commit-graph"))
	is.NoErr(err)
	is.Equal(runGit(t, dir, "rev-list", "main"), second+"\n"+first)
	runGit(t, dir, "cat-file", "-e", stray)
	runGit(t, dir, "fsck", "--no-progress")

	// Read through the storage after the packs it may hold were replaced.
	c, err := s.Commit(ctx, p, second)
	is.NoErr(err)
	is.Equal(c.ID, second)
}

// TestHousekeepingObjectStoreCounts: packs another process holds (.keep),
// cruft packs and unfinished ones are not counted; loose objects are
// estimated from objects/17, as git does.
func TestHousekeepingObjectStoreCounts(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "counted"}
	is.NoErr(s.Init(ctx, p, "main"))
	dir := repoDir(root, p)
	commit(t, s, p, "main", "first", file("a.txt", "one"))
	runGit(t, dir, "repack", "-q", "-d")
	packs, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.pack"))
	is.NoErr(err)
	is.Equal(len(packs), 1)
	base := packs[0][:len(packs[0])-len(".pack")]

	st, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 1)

	is.NoErr(os.WriteFile(base+".keep", nil, 0o644))
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 0) // held by a push under way
	is.NoErr(os.Remove(base + ".keep"))

	is.NoErr(os.WriteFile(filepath.Join(dir, "objects", "pack", "tmp_pack_x1"), []byte("partial"), 0o644))
	is.NoErr(os.MkdirAll(filepath.Join(dir, "objects", "17"), 0o755))
	for _, n := range []string{"0123456789abcdef0123456789abcdef012345", "1123456789abcdef0123456789abcdef012345", "tmp_obj_x"} {
		is.NoErr(os.WriteFile(filepath.Join(dir, "objects", "17", n), []byte("x"), 0o444))
	}
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st, repository.ObjectStore{Packs: 1, LooseEstimate: 512})
}

// TestHousekeepingErrors: a repository that does not exist is not found, a
// name that escapes the storage is refused, and a cancelled collection
// says so.
func TestHousekeepingErrors(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, _ := newStorage(t)
	missing := ports.RepoPath{Owner: "alice", Name: "missing"}
	_, err := s.ObjectStore(ctx, missing)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.True(errors.Is(s.CollectGarbage(ctx, missing), errs.ErrNotFound))
	_, err = s.ObjectStore(ctx, ports.RepoPath{Owner: "alice", Name: "../bob"})
	is.True(err != nil && !errors.Is(err, errs.ErrNotFound))

	p := ports.RepoPath{Owner: "alice", Name: "busy"}
	is.NoErr(s.Init(ctx, p, "main"))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err = s.CollectGarbage(cancelled, p)
	is.True(errors.Is(err, context.Canceled))
}
