package backup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// packageUsesShown is how many of the package files and images that use a
// missing package blob a finding names.
const packageUsesShown = 3

// checkPackageBlobs checks the package blob store against the package
// blob rows both ways: a stored blob no row names is an orphan (--fix
// removes it; a blob is written, and held, before its row commits, so an
// unheld one is judged at any age); a row whose blob is gone is missing.
// That one is reported only: the bytes are lost, and the row is what the
// package files and container images that published them stand on (their
// checksums, their versions), so no repair the doctor could make would be
// true. The finding names what uses the blob, so that it can be deleted
// and published again, or the blob put back from a backup.
func (d *Doctor) checkPackageBlobs(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.PkgBlobs.Stored(ctx, d.Now(), blobBatch, func(sums []string) error {
		return orphans(ctx, o, sums, d.Packages.BlobsReferenced, d.PkgBlobs.Delete, &out, func(s string) Finding {
			return Finding{Check: "blob-orphan", Subject: "package blob " + s, Detail: "no package file row names it"}
		})
	})
	if err != nil {
		return out, err
	}
	err = d.Inventory.PackageBlobRows(ctx, blobBatch, func(blobs []ports.PackageBlobRef) error {
		for _, b := range blobs {
			rc, err := d.PkgBlobs.Open(ctx, b.SHA256)
			if err == nil {
				_ = rc.Close()
				continue
			}
			if !errors.Is(err, errs.ErrNotFound) {
				return err
			}
			uses, total, err := d.Inventory.PackageBlobUses(ctx, b.SHA256, packageUsesShown)
			if errors.Is(err, errs.ErrNotFound) {
				continue // deleted meanwhile, with its blob
			}
			if err != nil {
				return err
			}
			out = append(out, Finding{Check: "blob-missing", Subject: "package blob " + b.SHA256,
				Detail: fmt.Sprintf("its row (%d bytes) names a file that is gone; %s", b.Size, usedBy(uses, total))})
		}
		return nil
	})
	return out, err
}

// usedBy says what uses a blob: some of them, and how many in all.
func usedBy(uses []string, total int) string {
	if total == 0 {
		return "nothing uses it"
	}
	s := "used by " + strings.Join(uses, ", ")
	if total > len(uses) {
		s += fmt.Sprintf(" and %d more", total-len(uses))
	}
	return s
}
