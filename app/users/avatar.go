package users

import (
	"context"
	"strconv"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Avatars are the use cases of an account's uploaded avatar: a user's own
// (POST/DELETE /user/avatar) and, through orgs.Avatars, an organisation's.
// Without one, the account's avatar_url is its generated default.
type Avatars struct{ *Service }

// Avatars returns the account avatar use cases.
func (s *Service) Avatars() Avatars { return Avatars{s} }

// Set stores image as account's avatar, replacing any earlier one; an
// image that does not decode, or is too large, is a 422 naming "image".
func (s Avatars) Set(ctx context.Context, account *user.User, image []byte) error {
	hash, err := s.avatars.Put(ctx, "image", "user-"+strconv.FormatInt(account.ID, 10), image)
	if err != nil {
		return err
	}
	return s.record(ctx, account, hash)
}

// Delete removes account's avatar; removing none is a no-op.
func (s Avatars) Delete(ctx context.Context, account *user.User) error {
	return s.record(ctx, account, "")
}

// record writes hash on the account's row, read afresh in the transaction,
// and then removes the file it replaced: the file goes only once nothing
// refers to it.
func (s Avatars) record(ctx context.Context, account *user.User, hash string) error {
	var old string
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByID(ctx, account.ID)
		if err != nil {
			return err
		}
		old = u.Avatar
		if old == hash {
			return nil
		}
		u.Avatar = hash
		u.Updated = s.clock.Now()
		return tx.Users.Update(ctx, u)
	})
	if err != nil {
		return err
	}
	s.forgetCached(account.ID)
	if old != "" && old != hash {
		if err := s.avatars.Remove(ctx, old); err != nil {
			s.log.Warn("removing a replaced avatar", "account", account.Name, "err", err)
		}
	}
	return nil
}
