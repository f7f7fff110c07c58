package githttp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// The small hook program beside the executable is preferred, but only when
// it is an executable file.
func TestPreferHookBinary(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	exe := filepath.Join(dir, "depot")
	is.NoErr(os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	is.Equal(preferHookBinary(exe), exe) // none beside it

	small := filepath.Join(dir, HookBinaryName)
	is.NoErr(os.WriteFile(small, []byte("#!/bin/sh\n"), 0o644))
	is.Equal(preferHookBinary(exe), exe) // not executable

	is.NoErr(os.Chmod(small, 0o755))
	is.Equal(preferHookBinary(exe), small)

	is.NoErr(os.Remove(small))
	is.NoErr(os.Mkdir(small, 0o755))
	is.Equal(preferHookBinary(exe), exe) // a directory is not a program
}
