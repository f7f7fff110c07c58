//go:build !unix

package blobs

import "os"

// hold does nothing where flock is missing: the sweep then relies on its
// running before the server serves and on files' ages alone.
func hold(*os.File) error { return nil }

// held is always false where flock is missing.
func held(string) bool { return false }

// whileFree never runs fn where flock is missing: no folder can be told
// free of its writer there.
func whileFree(string, func() error) (bool, error) { return false, nil }
