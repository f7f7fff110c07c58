package repository

// Housekeeping keeps a repository's object store fit to serve fetches: one
// pack with a reachability bitmap answers a clone's "counting objects" from
// the bitmap instead of a walk of the whole history, and reuses the pack's
// bytes as they are. A push adds a pack (or loose objects, for a small one)
// and no bitmap, so Depot collects a repository's garbage (`git gc`) after
// the pushes that leave it in a worse shape than that (NeedsHousekeeping).

// LooseObjectsLimit is how many loose objects a repository may hold before
// housekeeping packs them: git's own estimate (the objects of one of the 256
// fan-out directories, times 256) reaching it. It is git's gc.auto divided
// by about 26: a server reads its objects far more often than a working
// copy does.
const LooseObjectsLimit = 256

// ObjectStore is the shape of a repository's objects, as housekeeping
// decides from it.
type ObjectStore struct {
	// Packs counts the packs git would roll into one: those without a
	// .keep, .promisor or .mtimes (a cruft pack of unreachable objects).
	Packs int
	// Bitmap says one of them has a reachability bitmap.
	Bitmap bool
	// LooseEstimate is git's estimate of the loose objects: those of the
	// objects/17 directory, times 256.
	LooseEstimate int
}

// NeedsHousekeeping reports whether s is worth a `git gc`: several packs to
// roll into one, too many loose objects, or a pack without the bitmap that
// makes clones cheap. An empty store, and one pack with its bitmap and few
// loose objects, are left as they are.
func NeedsHousekeeping(s ObjectStore) bool {
	switch {
	case s.Packs > 1:
		return true
	case s.LooseEstimate >= LooseObjectsLimit:
		return true
	case s.Packs == 1 && !s.Bitmap:
		return true
	}
	return false
}
