package backup

import (
	"context"
	"fmt"
	"strconv"
)

// checkArtifacts checks the Actions artifact store against the artifact
// rows both ways: content (a finished zip or an upload under way) of an id
// no row has is an orphan (--fix removes it); a finalized, unexpired
// artifact whose zip is gone is missing (--fix makes it expire now, so that
// it answers as an expired artifact does, listed with "expired": true and
// its download 404, and the expired-artifact cleanup removes its row).
func (d *Doctor) checkArtifacts(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.Artifacts.Stored(ctx, d.Now(), blobBatch, func(ids []int64) error {
		return orphans(ctx, o, ids, d.Inventory.ArtifactsKnown, d.Artifacts.Delete, &out, func(id int64) Finding {
			return Finding{Check: "blob-orphan", Subject: "artifact " + strconv.FormatInt(id, 10),
				Detail: "no Actions artifact row names it"}
		})
	})
	if err != nil {
		return out, err
	}
	now := d.Now()
	refs, err := d.Inventory.ConfirmedArtifacts(ctx, now)
	if err != nil {
		return out, err
	}
	for _, ref := range refs {
		ok, err := d.Artifacts.Exists(ctx, ref.ID)
		if err != nil {
			return out, err
		}
		if ok {
			continue
		}
		f := Finding{Check: "blob-missing", Subject: "artifact " + strconv.FormatInt(ref.ID, 10),
			Detail: fmt.Sprintf("%q of %s run %d: its row names a file that is gone", ref.Name, ref.Repo, ref.RunID)}
		if o.Fix {
			expired, err := d.Inventory.ExpireArtifact(ctx, ref, now)
			if err != nil {
				return out, err
			}
			f.Fixed = true
			if expired {
				f.Detail += "; marked expired"
			} else {
				f.Detail += "; the row changed meanwhile"
			}
		}
		out = append(out, f)
	}
	return out, nil
}
