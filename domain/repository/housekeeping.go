package repository

// Housekeeping keeps a repository's object store fit to serve fetches: one
// pack with a reachability bitmap answers a clone's "counting objects" from
// the bitmap instead of a walk of the whole history, and reuses the pack's
// bytes as they are. A push adds a pack (or loose objects, for a small one)
// and no bitmap, so Depot tidies a repository after the pushes that leave
// it in a worse shape than that (PlanHousekeeping). Rolling every pack into
// one costs time in proportion to the whole repository, so it waits until
// the packs added since the last one weigh a tenth of it (or are many):
// over a repository's life, each byte is repacked a bounded number of
// times, however often it is pushed to.

// Thresholds of PlanHousekeeping.
const (
	// LooseObjectsLimit is how many loose objects a repository may hold
	// before housekeeping packs them: git's own estimate (the objects of one
	// of the 256 fan-out directories, times 256) reaching it. It is git's
	// gc.auto divided by about 26: a server reads its objects far more often
	// than a working copy does.
	LooseObjectsLimit = 256
	// PacksLimit is how many packs a repository may hold before the small
	// ones are rolled up, whatever their size (each is searched for every
	// object a read misses in the others).
	PacksLimit = 16
	// PackGrowthDivisor: the packs besides the largest are rolled into it
	// once they weigh 1/PackGrowthDivisor of it.
	PackGrowthDivisor = 10
)

// ObjectStore is the shape of a repository's objects, as housekeeping
// decides from it.
type ObjectStore struct {
	// Packs counts the packs git would roll into one: those without a
	// .keep, .promisor or .mtimes (a cruft pack of unreachable objects).
	Packs int
	// LargestPackBytes is the size of the largest of them, OtherPackBytes
	// that of the others together.
	LargestPackBytes, OtherPackBytes int64
	// Bitmap says the largest has a reachability bitmap.
	Bitmap bool
	// LooseEstimate is git's estimate of the loose objects: those of the
	// objects/17 directory, times 256.
	LooseEstimate int
}

// Housekeeping is what PlanHousekeeping decides.
type Housekeeping int

// The housekeeping a repository may get.
const (
	// HousekeepingNone leaves the repository as it is.
	HousekeepingNone Housekeeping = iota
	// HousekeepingRollUp rolls the loose objects and the small packs into
	// fewer packs, leaving the large ones (`git repack -d --geometric=2`):
	// it costs what the small ones weigh.
	HousekeepingRollUp
	// HousekeepingFull rolls everything into one pack with its bitmap and
	// writes the commit-graph (`git gc`), which costs what the repository
	// weighs.
	HousekeepingFull
)

// PlanHousekeeping decides what s needs: everything rolled into one pack
// when the largest pack has no bitmap (a first push) or when the packs
// besides it weigh a tenth of it; else the small packs and the loose objects
// rolled up when there are PacksLimit packs or LooseObjectsLimit loose
// objects (git's estimate); else nothing. An empty store needs nothing, and
// a store of loose objects only is rolled whole (it is small).
func PlanHousekeeping(s ObjectStore) Housekeeping {
	switch {
	case s.Packs == 0 && s.LooseEstimate >= LooseObjectsLimit:
		return HousekeepingFull
	case s.Packs == 0:
		return HousekeepingNone
	case !s.Bitmap:
		return HousekeepingFull
	case s.Packs > 1 && s.OtherPackBytes*PackGrowthDivisor >= s.LargestPackBytes:
		return HousekeepingFull
	case s.Packs >= PacksLimit, s.LooseEstimate >= LooseObjectsLimit:
		return HousekeepingRollUp
	}
	return HousekeepingNone
}
