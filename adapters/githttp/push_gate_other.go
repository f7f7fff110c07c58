//go:build !unix

package githttp

import (
	"context"
	"os"
)

const (
	lockShared    = 1
	lockExclusive = 2
)

// lockGate opens file without locking it: without flock(2) the gate holds
// nothing back, and a dump's repositories may be a push ahead of its
// database.
func lockGate(_ context.Context, file string, _ int) (*os.File, error) {
	return os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
}
