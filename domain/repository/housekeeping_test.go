package repository

import (
	"testing"

	"github.com/matryer/is"
)

func TestPlanHousekeeping(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name  string
		store ObjectStore
		want  Housekeeping
	}{
		{"empty", ObjectStore{}, HousekeepingNone},
		{"a few loose objects", ObjectStore{LooseEstimate: LooseObjectsLimit - 1}, HousekeepingNone},
		{"loose objects only, many", ObjectStore{LooseEstimate: LooseObjectsLimit}, HousekeepingFull},
		{"one pack with its bitmap", ObjectStore{Packs: 1, LargestPackBytes: 100 * mb, Bitmap: true},
			HousekeepingNone},
		{"one pack without a bitmap (a first push)", ObjectStore{Packs: 1, LargestPackBytes: 100 * mb},
			HousekeepingFull},
		{"one pack with its bitmap and many loose objects",
			ObjectStore{Packs: 1, LargestPackBytes: 100 * mb, Bitmap: true, LooseEstimate: 512}, HousekeepingRollUp},
		{"a small pushed pack beside a large one",
			ObjectStore{Packs: 2, LargestPackBytes: 100 * mb, OtherPackBytes: 9 * mb, Bitmap: true}, HousekeepingNone},
		{"small pushed packs weighing a tenth of the large one",
			ObjectStore{Packs: 5, LargestPackBytes: 100 * mb, OtherPackBytes: 10 * mb, Bitmap: true}, HousekeepingFull},
		{"small pushed packs and many loose objects",
			ObjectStore{Packs: 3, LargestPackBytes: 100 * mb, OtherPackBytes: mb, Bitmap: true, LooseEstimate: 256},
			HousekeepingRollUp},
		{"many small packs", ObjectStore{Packs: PacksLimit, LargestPackBytes: 100 * mb, OtherPackBytes: mb, Bitmap: true},
			HousekeepingRollUp},
		{"packs without a bitmap on the largest",
			ObjectStore{Packs: 2, LargestPackBytes: 100 * mb, OtherPackBytes: mb}, HousekeepingFull},
	} {
		t.Run(c.name, func(t *testing.T) {
			is.New(t).Equal(PlanHousekeeping(c.store), c.want)
		})
	}
}

// TestPlanHousekeepingRepacksEachByteBoundedTimes: pushed to in small packs
// for ever, a repository is rolled into one pack each time it has grown by
// a tenth, so the bytes those full repacks write stay within a constant
// factor of what was pushed; in between, the small packs are only rolled
// up (here: into one).
func TestPlanHousekeepingRepacksEachByteBoundedTimes(t *testing.T) {
	is := is.New(t)
	s := ObjectStore{Packs: 1, LargestPackBytes: 1 << 20, Bitmap: true}
	var pushed, repacked int64 = s.LargestPackBytes, 0
	for range 100_000 {
		const push = 64 << 10
		s.Packs++
		s.OtherPackBytes += push
		pushed += push
		switch PlanHousekeeping(s) {
		case HousekeepingFull:
			repacked += s.LargestPackBytes + s.OtherPackBytes
			s = ObjectStore{Packs: 1, LargestPackBytes: s.LargestPackBytes + s.OtherPackBytes, Bitmap: true}
		case HousekeepingRollUp:
			is.True(s.Packs >= PacksLimit)
			s.Packs = 2
		case HousekeepingNone:
		default:
			t.Fatalf("unexpected plan for %+v", s)
		}
	}
	is.True(repacked <= 12*pushed) // 1/PackGrowthDivisor growth: at most about 11× the bytes pushed
}
