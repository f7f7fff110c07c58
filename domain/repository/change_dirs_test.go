package repository

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestCheckChangeDirectories(t *testing.T) {
	is := is.New(t)
	deep := func(prefix string, depth int) string { return prefix + strings.Repeat("/d", depth-1) + "/f" }

	// Shared directories count once: 2,000 files in one deep directory.
	dir := "a" + strings.Repeat("/d", 1999)
	var shared []FileChange
	for i := range 2000 {
		shared = append(shared, FileChange{Operation: FileCreate, Path: fmt.Sprintf("%s/f%d", dir, i)})
	}
	is.NoErr(checkChangeDirectories(shared))

	// Exactly at the bound, then one past it (a rename's source counts too).
	var at []FileChange
	for i := range MaxChangeDirectories / 10 {
		at = append(at, FileChange{Operation: FileCreate, Path: deep(fmt.Sprintf("top%d", i), 10)})
	}
	is.NoErr(checkChangeDirectories(at))
	over := append(at, FileChange{Operation: FileRename, Path: "x.txt", FromPath: "fresh/x.txt"})
	err := checkChangeDirectories(over)
	is.True(errors.Is(err, errs.ErrInvalid))
	is.Equal(errs.Message(err), "Files: a write may pass through at most 10000 directories")

	// Files in distinct deep directories: refused through CheckFileChanges.
	var wide []FileChange
	for i := range 10 {
		wide = append(wide, FileChange{Operation: FileCreate, Path: deep(fmt.Sprintf("w%d", i), 2000)})
	}
	_, err = CheckFileChanges(wide)
	is.True(errors.Is(err, errs.ErrInvalid))
}
