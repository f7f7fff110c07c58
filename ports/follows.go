package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// FollowList is one page of an account's followers or followings, limited
// to the accounts the viewer may see.
type FollowList struct {
	// Visibilities keeps only the accounts of these visibilities; empty means all.
	Visibilities []user.Visibility
	// IncludeUserID is also listed whatever its visibility (the viewer itself).
	IncludeUserID int64
	ListOptions
}

// FollowStore persists who follows whom. A pair is recorded at most once;
// the followers and following counters of both accounts are recounted in
// the transaction that changes a pair, and a deleted account's follows go
// with it.
type FollowStore interface {
	// Follow records that userID follows followID; following again changes
	// nothing. A missing account is errs.ErrNotFound.
	Follow(ctx context.Context, userID, followID int64) error
	// Unfollow removes the pair, if any.
	Unfollow(ctx context.Context, userID, followID int64) error
	// IsFollowing reports whether userID follows followID.
	IsFollowing(ctx context.Context, userID, followID int64) (bool, error)
	// Followers lists one page of the individuals following userID, the
	// earliest follow first, and how many the filter keeps.
	Followers(ctx context.Context, userID int64, q FollowList) ([]*user.User, int64, error)
	// Following lists one page of the accounts (users and organisations)
	// userID follows, the earliest follow first, and how many the filter keeps.
	Following(ctx context.Context, userID int64, q FollowList) ([]*user.User, int64, error)
	// Sever removes the follows between a and b both ways (a block) and
	// recounts both accounts. Run it inside the caller's transaction.
	Sever(ctx context.Context, a, b int64) error
}
