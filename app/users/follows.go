package users

import (
	"context"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Follows are the use cases of following accounts: listing an account's
// followers and followings, checking, following and unfollowing.
type Follows struct{ *Service }

// Follows returns the follow use cases.
func (s *Service) Follows() Follows { return Follows{s} }

// errNotFollowing is the answer of a check when the pair does not exist.
var errNotFollowing = errs.NotFound("user is not followed")

// followList is the page request limited to the accounts c may see, as
// Gitea filters followers and followings by the viewer's visibility rule.
func followList(c auth.Caller, opts ports.ListOptions) ports.FollowList {
	v := Viewer(c)
	return ports.FollowList{Visibilities: user.VisibleKinds(v), IncludeUserID: v.ID, ListOptions: opts}
}

// visible answers 404 for an account c may not see.
func visible(c auth.Caller, u *user.User) error {
	if !user.CanSee(Viewer(c), u) {
		return errs.NotFound("user does not exist")
	}
	return nil
}

// Followers lists one page of the individuals following u that c may see,
// and their number; an account c may not see is absent.
func (s Follows) Followers(ctx context.Context, c auth.Caller, u *user.User, opts ports.ListOptions) ([]*user.User, int64, error) {
	if err := visible(c, u); err != nil {
		return nil, 0, err
	}
	return s.stores.Follows.Followers(ctx, u.ID, followList(c, opts))
}

// Following lists one page of the accounts u follows that c may see, and
// their number; an account c may not see is absent.
func (s Follows) Following(ctx context.Context, c auth.Caller, u *user.User, opts ports.ListOptions) ([]*user.User, int64, error) {
	if err := visible(c, u); err != nil {
		return nil, 0, err
	}
	return s.stores.Follows.Following(ctx, u.ID, followList(c, opts))
}

// Check answers nil when follower follows target, else a 404; either
// account hidden from c is a 404 too.
func (s Follows) Check(ctx context.Context, c auth.Caller, follower, target *user.User) error {
	if err := visible(c, follower); err != nil {
		return err
	}
	if err := visible(c, target); err != nil {
		return err
	}
	ok, err := s.stores.Follows.IsFollowing(ctx, follower.ID, target.ID)
	if err != nil {
		return err
	}
	if !ok {
		return errNotFollowing
	}
	return nil
}

// Follow makes the caller follow target (a user or an organisation), as
// Gitea's FollowUser: following oneself does nothing, a block either way
// is a 403, and both counters change in the same transaction. The blocks
// are read inside that transaction, so a block committed first wins.
func (s Follows) Follow(ctx context.Context, c auth.Caller, target *user.User) error {
	if c.User == nil {
		return errs.Unauthenticated("token is required")
	}
	if err := visible(c, target); err != nil {
		return err
	}
	defer s.forgetCached(c.User.ID, target.ID)
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		f := user.FollowFacts{FollowerID: c.User.ID, TargetID: target.ID}
		var err error
		if f.FollowerHeldBack, err = s.BlockedByAny(ctx, c.User, target.ID); err != nil {
			return err
		}
		if f.TargetHeldBack, err = s.BlockedByAny(ctx, target, c.User.ID); err != nil {
			return err
		}
		change, err := user.CanFollow(f)
		if err != nil || change == user.FollowNothing {
			return err
		}
		return tx.Follows.Follow(ctx, c.User.ID, target.ID)
	})
}

// Unfollow makes the caller stop following target; not following it, or
// naming oneself, changes nothing.
func (s Follows) Unfollow(ctx context.Context, c auth.Caller, target *user.User) error {
	if c.User == nil {
		return errs.Unauthenticated("token is required")
	}
	if err := visible(c, target); err != nil {
		return err
	}
	if c.User.ID == target.ID {
		return nil
	}
	defer s.forgetCached(c.User.ID, target.ID)
	return s.stores.Follows.Unfollow(ctx, c.User.ID, target.ID)
}
