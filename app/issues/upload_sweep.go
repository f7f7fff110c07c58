package issues

import (
	"context"
	"time"
)

// UploadSweep counts what SweepUploads removed.
type UploadSweep struct {
	// Orphans are stored blobs that no attachment or release asset row
	// names: a crash between a blob's write and its row's commit, or
	// between a row's deletion and its blob's.
	Orphans int
	// Partial are uploads cut off while their bytes were being written.
	Partial int
}

// sweepBatch is how many blob UUIDs one lookup of their rows checks.
const sweepBatch = 500

// SweepUploads settles what a crash left in the blob store that issue and
// comment attachments and release assets share: it removes the partial
// files of cut-off uploads and the blobs no row names, both only when
// last written before t and not held by a live upload (the store holds a
// blob from its first byte until its row is committed). Run it at
// start-up before serving, with t the start: an upload of this process
// cannot be in flight then, and another process's is held or newer. A
// row whose blob is missing is kept (its download answers 404).
func (s *Service) SweepUploads(ctx context.Context, t time.Time) (UploadSweep, error) {
	var done UploadSweep
	n, err := s.blobs.RemovePartial(ctx, t)
	done.Partial = n
	if err != nil {
		return done, err
	}
	err = s.blobs.Stored(ctx, t, sweepBatch, func(uuids []string) error {
		kept, err := s.stores.UploadRefs.Referenced(ctx, uuids)
		if err != nil {
			return err
		}
		for _, u := range uuids {
			if kept[u] {
				continue
			}
			if err := s.blobs.Delete(ctx, u); err != nil {
				return err
			}
			done.Orphans++
		}
		return nil
	})
	return done, err
}
