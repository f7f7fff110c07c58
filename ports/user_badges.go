package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// UserBadgeStore persists the site's badges and the badges users hold. A
// slug names one badge (errs.ErrConflict); a user holds a badge at most
// once; holdings go with their user and with their badge.
type UserBadgeStore interface {
	// Create records b and sets b.ID.
	Create(ctx context.Context, b *user.Badge) error
	// All lists every badge, by slug.
	All(ctx context.Context) ([]*user.Badge, error)
	// Delete deletes the badge slug names; errs.ErrNotFound when none.
	Delete(ctx context.Context, slug string) error
	// BySlugs returns the badges of slugs that exist, by slug.
	BySlugs(ctx context.Context, slugs []string) ([]*user.Badge, error)
	// OfUser lists the badges userID holds, in the order given.
	OfUser(ctx context.Context, userID int64) ([]*user.Badge, error)
	// Give makes userID hold badgeIDs; ones held already stay as they are.
	Give(ctx context.Context, userID int64, badgeIDs []int64) error
	// Take makes userID no longer hold badgeIDs; ones not held are skipped.
	Take(ctx context.Context, userID int64, badgeIDs []int64) error
}
