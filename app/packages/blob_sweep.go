package packages

import (
	"context"
	"time"
)

// BlobSweep counts what SweepBlobs removed.
type BlobSweep struct {
	// Orphans are stored blobs no blob row names: a crash between a blob's
	// write and its row's commit, or between a deletion's commit and the
	// blob's removal.
	Orphans int
	// Partial are uploads cut off while being written.
	Partial int
}

// sweepBatch is how many blob sums one lookup of their rows checks.
const sweepBatch = 500

// SweepBlobs settles what a crash left in the package blob store: cut-off
// uploads and blobs no row names, both only when last written before t
// and not held by a live upload. Run it at start-up before serving, with t
// the start.
func (s *Service) SweepBlobs(ctx context.Context, t time.Time) (BlobSweep, error) {
	var done BlobSweep
	n, err := s.blobs.RemovePartial(ctx, t)
	done.Partial = n
	if err != nil {
		return done, err
	}
	err = s.blobs.Stored(ctx, t, sweepBatch, func(sums []string) error {
		kept, err := s.stores.Packages.BlobsReferenced(ctx, sums)
		if err != nil {
			return err
		}
		for _, sum := range sums {
			if kept[sum] {
				continue
			}
			if err := s.blobs.Delete(ctx, sum); err != nil {
				return err
			}
			done.Orphans++
		}
		return nil
	})
	return done, err
}
