package orgs

import (
	"context"
	"strconv"

	"github.com/depothq/depot/ports"
)

// Avatars are the use cases of uploaded avatars: an organisation's, and
// reading any account's stored image.
type Avatars struct{ *Service }

// Avatars returns the avatar use cases.
func (s *Service) Avatars() Avatars { return Avatars{s} }

// Set stores image as a.Org's avatar, replacing any earlier one; an
// image that does not decode is a 422 naming "image".
func (s Avatars) Set(ctx context.Context, a *Access, image []byte) error {
	hash, err := s.avatars.Put(ctx, "image", "user-"+strconv.FormatInt(a.Org.ID, 10), image)
	if err != nil {
		return err
	}
	return s.setAvatar(ctx, a, hash)
}

// Delete removes a.Org's avatar; removing none is a no-op.
func (s Avatars) Delete(ctx context.Context, a *Access) error {
	return s.setAvatar(ctx, a, "")
}

// setAvatar records hash on the organisation's account row, read afresh in
// the transaction, and then removes the file it replaced: the file goes
// only once nothing refers to it.
func (s Avatars) setAvatar(ctx context.Context, a *Access, hash string) error {
	var old string
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		o, err := tx.Orgs.Get(ctx, a.Org.ID)
		if err != nil {
			return err
		}
		old = o.Avatar
		if old == hash {
			return nil
		}
		o.Avatar = hash
		o.Updated = s.clock.Now()
		return tx.Orgs.Update(ctx, o)
	})
	if err != nil {
		return err
	}
	if old != "" && old != hash {
		if err := s.avatars.Remove(ctx, old); err != nil {
			s.log.Warn("removing a replaced organization avatar", "org", a.Org.Name, "err", err)
		}
	}
	return nil
}

// Open returns a stored account avatar image by its name.
func (s Avatars) Open(ctx context.Context, hash string) ([]byte, error) {
	return s.avatars.Open(ctx, hash)
}
