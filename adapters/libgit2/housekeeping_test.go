package libgit2_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// initRepo makes alice's empty repository name in a new storage and
// returns the storage, the repository and its directory.
func initRepo(t *testing.T, name string) (*libgit2.Storage, ports.RepoPath, string) {
	t.Helper()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: name}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		t.Fatal(err)
	}
	return s, p, repoDir(root, p)
}

// TestHousekeepingCollectsPushedPacks: two packs (two pushes, say) and a
// loose object nothing reaches become one pack with its bitmap and a
// commit-graph; every commit is still there, and so is the unreachable
// object (it is recent: a push could be about to name it).
func TestHousekeepingCollectsPushedPacks(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, p, dir := initRepo(t, "kept")

	st, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st, repository.ObjectStore{}) // a new repository: nothing to do
	is.Equal(repository.PlanHousekeeping(st), repository.HousekeepingNone)

	first := commit(t, s, p, "main", "first", file("a.txt", "one"))
	runGit(t, dir, "repack", "-q", "-d")
	second := commit(t, s, p, "main", "second", file("b.txt", "two"))
	runGit(t, dir, "repack", "-q", "-d")
	stray := runGit(t, dir, "hash-object", "-w", "--stdin")
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 2)
	is.True(!st.Bitmap)
	is.True(st.LargestPackBytes > 0 && st.OtherPackBytes > 0)
	is.Equal(repository.PlanHousekeeping(st), repository.HousekeepingFull)

	is.NoErr(s.CollectGarbage(ctx, p))
	st, err = s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 1)
	is.True(st.Bitmap)
	is.Equal(st.OtherPackBytes, int64(0))
	is.Equal(repository.PlanHousekeeping(st), repository.HousekeepingNone)
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
	s, p, dir := initRepo(t, "counted")
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
	is.Equal(st.Packs, 1)
	is.Equal(st.LooseEstimate, 512)
}

// TestHousekeepingRollUp: small packs and loose objects beside a large pack
// with its bitmap are rolled into one pack; the large pack and its bitmap
// stay as they are, and no object is lost.
func TestHousekeepingRollUp(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, p, dir := initRepo(t, "rolled")
	var big []ports.GitFile
	for i := range 200 {
		big = append(big, file(fmt.Sprintf("f%03d.txt", i), strings.Repeat(fmt.Sprintf("line %d\n", i), 200)))
	}
	commit(t, s, p, "main", "large", big...)
	is.NoErr(s.CollectGarbage(ctx, p))
	large, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.bitmap"))
	is.NoErr(err)
	is.Equal(len(large), 1)
	commit(t, s, p, "main", "small one", file("a.txt", "one"))
	runGit(t, dir, "repack", "-q", "-d")
	commit(t, s, p, "main", "small two", file("b.txt", "two"))
	runGit(t, dir, "repack", "-q", "-d")
	last := commit(t, s, p, "main", "loose", file("c.txt", "three"))
	before, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(before.Packs, 3)
	is.True(before.Bitmap)

	is.NoErr(s.RollUp(ctx, p))
	after, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(after.Packs, 2)
	is.True(after.Bitmap)
	is.Equal(after.LargestPackBytes, before.LargestPackBytes)
	_, err = os.Stat(large[0]) // the large pack's bitmap, untouched
	is.NoErr(err)
	is.Equal(runGit(t, dir, "count-objects"), "0 objects, 0 kilobytes")
	is.Equal(runGit(t, dir, "rev-list", "--count", last), "4")
	runGit(t, dir, "fsck", "--no-progress")
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

// TestHousekeepingGCAlreadyRunning: a git gc finding another one at work on
// the repository (the housekeeping job and the git_gc_repos task at once)
// leaves the work to it and reports no error; the packs are not touched.
func TestHousekeepingGCAlreadyRunning(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, p, dir := initRepo(t, "busy")
	commit(t, s, p, "main", "first", file("a.txt", "one"))
	runGit(t, dir, "repack", "-q", "-d")
	commit(t, s, p, "main", "second", file("b.txt", "two"))
	runGit(t, dir, "repack", "-q", "-d")
	host, err := os.Hostname()
	is.NoErr(err)
	// git's own lock: a live process of this machine holds it.
	is.NoErr(os.WriteFile(filepath.Join(dir, "gc.pid"), []byte(strconv.Itoa(os.Getpid())+" "+host), 0o644))
	is.NoErr(s.CollectGarbage(ctx, p))
	st, err := s.ObjectStore(ctx, p)
	is.NoErr(err)
	is.Equal(st.Packs, 2) // left to the gc at work
}
