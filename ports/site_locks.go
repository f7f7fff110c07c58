package ports

import "context"

// Site lock names.
const (
	// LockRepoDirectories serialises creating, moving, adopting and
	// removing repositories' Git directories (the shared volume's layout).
	LockRepoDirectories = "repo-directories"
)

// SiteLocks are named locks that every server sharing the database
// honours (Postgres advisory locks; on SQLite, one server, in memory).
// Ref updates need none: git's and libgit2's lock files on the shared
// volume make each one a compare-and-swap across servers.
type SiteLocks interface {
	// Lock waits for the lock called name and returns its release. It
	// fails when ctx ends first or the database cannot be reached.
	Lock(ctx context.Context, name string) (unlock func(), err error)
}
