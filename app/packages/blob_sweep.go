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
	// Uploads are the container registry's unfinished blob uploads (under
	// <data>/packages-uploads) left idle: cut off by a crash, or abandoned.
	Uploads int
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

// SweepStorage is SweepBlobs(blobsBefore) and the removal of the
// container registry's blob uploads last written before uploadsBefore,
// which a client may still resume until then. It runs at start-up and in
// the cleanup_packages task.
func (s *Containers) SweepStorage(ctx context.Context, blobsBefore, uploadsBefore time.Time) (BlobSweep, error) {
	done, err := s.SweepBlobs(ctx, blobsBefore)
	if err != nil {
		return done, err
	}
	done.Uploads, err = s.uploads.RemoveBefore(ctx, uploadsBefore)
	return done, err
}

// UploadTTL is how long an idle container blob upload is kept.
func (s *Containers) UploadTTL() time.Duration { return uploadTTL }
