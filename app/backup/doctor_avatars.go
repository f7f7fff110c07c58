package backup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
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
	var drops []ports.CacheDrop
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
				if ref.Kind != "repository" {
					// The running servers keep accounts with their tokens.
					drops = append(drops, ports.CacheDrop{Cache: ports.CacheUserTokens, ID: ref.ID})
				}
			} else {
				f.Detail += "; the row changed meanwhile"
			}
		}
		out = append(out, f)
	}
	if len(drops) > 0 && d.Drops != nil {
		if err := d.Drops.Publish(ctx, drops); err != nil {
			return out, fmt.Errorf("telling the servers of the cleared avatars: %w", err)
		}
	}
	return out, nil
}
