package libgit2

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.GitHousekeeping = (*Storage)(nil)

// gcConfig is the configuration `git gc` runs with, whatever the
// repository's own says: unreachable objects go to a cruft pack (not loose,
// so that the next push's check does not count them), a bare repository's
// one pack gets its reachability bitmap, the commit-graph is written, git
// stays in the foreground (so that the job's end is gc's) and runs no hook.
var gcConfig = []string{
	"-c", "gc.cruftPacks=true",
	"-c", "repack.writeBitmaps=true",
	"-c", "gc.writeCommitGraph=true",
	"-c", "gc.autoDetach=false",
	"-c", "core.hooksPath=" + os.DevNull,
}

// ObjectStore reads the shape of p's object store from its directory: the
// packs git would repack, whether one has a bitmap, and git's estimate of
// the loose objects (objects/17 times 256, as gc --auto counts them).
func (s *Storage) ObjectStore(ctx context.Context, p ports.RepoPath) (repository.ObjectStore, error) {
	var st repository.ObjectStore
	if err := ctx.Err(); err != nil {
		return st, err
	}
	dir, err := s.repoDir(p)
	if err != nil {
		return st, err
	}
	if ok, err := dirExists(dir); err != nil {
		return st, err
	} else if !ok {
		return st, errNoRepo()
	}
	packDir := filepath.Join(dir, "objects", "pack")
	names, err := readNames(packDir)
	if err != nil {
		return st, err
	}
	has := make(map[string]bool, len(names))
	for _, n := range names {
		has[n] = true
	}
	var total int64
	for _, n := range names {
		base, ok := strings.CutSuffix(n, ".pack")
		if !ok || !strings.HasPrefix(base, "pack-") || !has[base+".idx"] {
			continue // an unfinished pack (tmp_pack_*), or one git cannot use yet
		}
		if has[base+".keep"] || has[base+".promisor"] || has[base+".mtimes"] {
			continue
		}
		fi, err := os.Stat(filepath.Join(packDir, n))
		if errors.Is(err, os.ErrNotExist) {
			continue // replaced meanwhile
		}
		if err != nil {
			return st, err
		}
		st.Packs++
		total += fi.Size()
		if fi.Size() > st.LargestPackBytes {
			st.LargestPackBytes, st.Bitmap = fi.Size(), has[base+".bitmap"]
		}
	}
	st.OtherPackBytes = total - st.LargestPackBytes
	loose, err := readNames(filepath.Join(dir, "objects", "17"))
	if err != nil {
		return st, err
	}
	for _, n := range loose {
		if len(n) == 38 && !strings.HasPrefix(n, "tmp_") {
			st.LooseEstimate += 256
		}
	}
	return st, nil
}

// readNames lists the names in dir; a missing directory has none.
func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// CollectGarbage runs `git gc` in p's repository with gcConfig and a clean
// git configuration. git runs in a process group of its own, which the end
// of ctx kills whole (gc's repack and pack-objects too); the new packs are
// renamed into place only once written, so a killed gc leaves the old ones
// and at worst a temporary file. Its report, bounded, is the error; none
// when another gc is at work on the repository.
func (s *Storage) CollectGarbage(ctx context.Context, p ports.RepoPath) error {
	err := s.runGit(ctx, p, gcConfig, "gc", "--quiet")
	if err != nil && ctx.Err() == nil && strings.Contains(err.Error(), gcRunningMessage) {
		// Another gc (the housekeeping job and the git_gc_repos task at
		// once) holds git's lock on the repository: it does this work.
		return nil
	}
	return err
}

// gcRunningMessage is what git gc says, and exits with 128, when another
// gc holds its lock (gc.pid) on the repository.
const gcRunningMessage = "gc is already running"

// RollUp runs `git repack -d --geometric=2` in p's repository, as
// CollectGarbage runs git gc: the loose objects and the packs smaller than
// half the next larger one are rolled into one pack, and the large packs
// (with their bitmap) are left as they are. It drops no object.
func (s *Storage) RollUp(ctx context.Context, p ports.RepoPath) error {
	return s.runGit(ctx, p, gcConfig, "repack", "-d", "-q", "--geometric=2", "--no-write-bitmap-index")
}
