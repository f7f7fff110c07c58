package backup

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// avatarSettle is how old a stored avatar must be before the doctor judges
// it: an avatar is written before the row that names it commits, so a
// younger one may be an upload whose row is on its way.
const avatarSettle = time.Minute

// checkAvatars checks the avatar store (users', organisations' and
// repositories' avatars) against the rows both ways: an image no row names
// is an orphan (--fix removes it); a row naming an image that is gone is
// missing (--fix clears the row's avatar, so the default one shows, as
// after a DELETE of the avatar).
func (d *Doctor) checkAvatars(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.Avatars.Stored(ctx, d.Now().Add(-avatarSettle), blobBatch, func(hashes []string) error {
		return orphans(ctx, o, hashes, d.Inventory.AvatarsReferenced, d.Avatars.Remove, &out, func(h string) Finding {
			return Finding{Check: "blob-orphan", Subject: "avatar " + h, Detail: "no user, organization or repository row names it"}
		})
	})
	if err != nil {
		return out, err
	}
	refs, err := d.Inventory.AvatarRefs(ctx)
	if err != nil {
		return out, err
	}
	for _, ref := range refs {
		_, err := d.Avatars.Open(ctx, ref.Hash)
		if err == nil {
			continue
		}
		if !errors.Is(err, errs.ErrNotFound) && !errors.Is(err, errs.ErrInvalid) {
			return out, err
		}
		f := Finding{Check: "blob-missing", Subject: "avatar of " + ref.Kind + " " + ref.Name,
			Detail: "its row names avatar " + ref.Hash + ", a file that is gone"}
		if o.Fix {
			cleared, err := d.Inventory.ClearAvatar(ctx, ref)
			if err != nil {
				return out, err
			}
			f.Fixed = true
			if cleared {
				f.Detail += "; cleared from the row, as a deleted avatar is"
			} else {
				f.Detail += "; the row changed meanwhile"
			}
		}
		out = append(out, f)
	}
	return out, nil
}
