package libgit2_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// TestChangeFilesDeepPathsWalkOnce writes files 2,000 directories deep. A
// write used to look every parent of a path up from the root, building
// each prefix as a string: the square of the depth per file (seconds and
// megabytes for one such file). The parents are now walked down once, so a
// write's Go allocations grow with its files times their depth, measured
// here, not timed.
func TestChangeFilesDeepPathsWalkOnce(t *testing.T) {
	is := is.New(t)
	f := changeNewFixture(t)
	dir := "deep" + strings.Repeat("/d", 1999)
	_, err := f.change("main", repository.FileChange{Operation: repository.FileCreate, Path: dir + "/first", Content: []byte("1\n")})
	is.NoErr(err)

	const n = 40
	changes := make([]repository.FileChange, n)
	for i := range changes {
		changes[i] = repository.FileChange{Operation: repository.FileCreate, Path: fmt.Sprintf("%s/f%02d", dir, i),
			Content: []byte(fmt.Sprintf("%d\n", i))}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := f.change("main", changes...)
	runtime.ReadMemStats(&after)
	is.NoErr(err)
	perFile := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per file 2,000 directories deep", perFile)
	// One walk is a few hundred bytes per directory; the prefixes of one
	// path alone were 4 MB.
	is.True(perFile < 2<<20)
	is.Equal(f.git(t, "show", "main:"+dir+"/f39"), "39")
	is.Equal(res.Entries[0].Path, dir+"/f00")
	f.fsck(t)

	// A file on the way deep down is still refused, naming its path.
	_, err = f.change("main", repository.FileChange{Operation: repository.FileCreate, Path: dir + "/first/under"})
	is.True(err != nil)
	is.Equal(errs.Message(err), "TreePath: a file exists where you're trying to create a subdirectory [path: "+dir+"/first]")
}
