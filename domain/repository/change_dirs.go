package repository

import (
	"fmt"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// MaxChangeDirectories bounds the distinct directories one write's paths
// (and renames' sources) pass through. Each is a tree the write rewrites,
// a Git object written to disk: a path of 4,096 bytes can be 2,048
// directories deep, so without this bound a request of 2,000 such files
// (8 MB) made four million trees, hours of work. Ordinary batches pass
// through a few hundred.
const MaxChangeDirectories = 10000

// changeDirKey names a directory as its parent's number and its own name,
// so that a path's directories are counted in one pass over its bytes
// (hashing every prefix would cost the square of its length).
type changeDirKey struct {
	parent int
	name   string
}

// checkChangeDirectories refuses changes whose paths pass through more
// than MaxChangeDirectories distinct directories (422 naming Files).
func checkChangeDirectories(changes []FileChange) error {
	paths := make([]string, 0, len(changes))
	for _, c := range changes {
		paths = append(paths, c.Path)
		if c.FromPath != "" {
			paths = append(paths, c.FromPath)
		}
	}
	return CheckChangeDirectories("Files", paths)
}

// CheckChangeDirectories refuses paths (cleaned, as CleanTreePath returns
// them) that pass through more than MaxChangeDirectories distinct
// directories, a 422 naming field.
func CheckChangeDirectories(field string, paths []string) error {
	dirs := map[changeDirKey]int{}
	for _, p := range paths {
		parent := 0
		for {
			i := strings.IndexByte(p, '/')
			if i < 0 {
				break
			}
			k := changeDirKey{parent, p[:i]}
			id, ok := dirs[k]
			if !ok {
				if len(dirs) == MaxChangeDirectories {
					return errs.Invalid(fmt.Sprintf("a write may pass through at most %d directories", MaxChangeDirectories), field)
				}
				id = len(dirs) + 1
				dirs[k] = id
			}
			parent, p = id, p[i+1:]
		}
	}
	return nil
}
