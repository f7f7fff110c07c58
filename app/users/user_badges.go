package users

import (
	"context"
	"sort"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// UserBadges are the use cases of badges: the site's badges, defined by
// the admin CLI, and the ones an administrator gives users.
type UserBadges struct{ *Service }

// UserBadges returns the badge use cases.
func (s *Service) UserBadges() UserBadges { return UserBadges{s} }

// Define creates a badge after checking its slug.
func (s UserBadges) Define(ctx context.Context, b *user.Badge) error {
	if err := user.ValidateBadgeSlug(b.Slug); err != nil {
		return err
	}
	return s.stores.Badges.Create(ctx, b)
}

// All lists the site's badges.
func (s UserBadges) All(ctx context.Context) ([]*user.Badge, error) {
	return s.stores.Badges.All(ctx)
}

// Undefine deletes a badge; users holding it lose it.
func (s UserBadges) Undefine(ctx context.Context, slug string) error {
	return s.stores.Badges.Delete(ctx, slug)
}

// Of lists the badges u holds.
func (s UserBadges) Of(ctx context.Context, u *user.User) ([]*user.Badge, error) {
	return s.stores.Badges.OfUser(ctx, u.ID)
}

// Give makes u hold the badges slugs name; one held already is left as
// it is. An unknown slug is a 422 naming it, and nothing is given.
func (s UserBadges) Give(ctx context.Context, u *user.User, slugs []string) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		ids, err := badgeIDs(ctx, tx, slugs)
		if err != nil {
			return err
		}
		return tx.Badges.Give(ctx, u.ID, ids)
	})
}

// Take makes u no longer hold the badges slugs name; one not held is
// skipped. An unknown slug is a 422 naming it.
func (s UserBadges) Take(ctx context.Context, u *user.User, slugs []string) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		ids, err := badgeIDs(ctx, tx, slugs)
		if err != nil {
			return err
		}
		return tx.Badges.Take(ctx, u.ID, ids)
	})
}

// badgeIDs resolves slugs in one query and names the unknown ones.
func badgeIDs(ctx context.Context, tx ports.Stores, slugs []string) ([]int64, error) {
	found, err := tx.Badges.BySlugs(ctx, slugs)
	if err != nil {
		return nil, err
	}
	known := make(map[string]int64, len(found))
	for _, b := range found {
		known[b.Slug] = b.ID
	}
	var unknown []string
	ids := make([]int64, 0, len(found))
	seen := make(map[string]bool, len(slugs))
	for _, slug := range slugs {
		if seen[slug] { // a slug named twice is one badge
			continue
		}
		seen[slug] = true
		id, ok := known[slug]
		if !ok {
			unknown = append(unknown, slug)
			continue
		}
		ids = append(ids, id)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, errs.Invalid("badge does not exist: "+strings.Join(unknown, ", "), "BadgeSlugs")
	}
	return ids, nil
}
