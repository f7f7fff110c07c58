package libgit2

import (
	"path/filepath"

	git "github.com/libgit2/git2go/v34"
)

// PathIndexFile is where the index of path at tip is kept in the
// repository in dir.
func PathIndexFile(dir, path, tip string) string {
	return filepath.Join(pathIndexFolder(dir, path), tip)
}

// ReadPathIndex returns the ids of path's index at tip, if there is one.
func ReadPathIndex(dir, path, tip string) ([]string, bool) {
	id, err := git.NewOid(tip)
	if err != nil {
		return nil, false
	}
	ids, ok := readPathIndex(dir, path, *id)
	out := make([]string, len(ids))
	for i := range ids {
		out[i] = ids[i].String()
	}
	return out, ok
}

// WritePathIndex plants ids as path's index at tip.
func WritePathIndex(dir, path, tip string, ids []string) {
	oids := make([]git.Oid, len(ids))
	for i, s := range ids {
		id, err := git.NewOid(s)
		if err != nil {
			panic(err)
		}
		oids[i] = *id
	}
	id, err := git.NewOid(tip)
	if err != nil {
		panic(err)
	}
	writePathIndex(dir, path, *id, oids)
}

// WaitBackground waits for the storage's background work to finish.
func (s *Storage) WaitBackground() { s.bg.wg.Wait() }
