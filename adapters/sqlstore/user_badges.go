package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.UserBadgeStore = (*UserBadgeStore)(nil)

var badgeMapping = mapping{
	op: "user badge", notFound: "badge does not exist", conflict: "badge already exists",
	missingRef: "user does not exist",
}

type badgeRow struct {
	bun.BaseModel `bun:"table:badges,alias:b"`

	ID          int64  `bun:"id,pk,autoincrement"`
	Slug        string `bun:"slug"`
	Description string `bun:"description"`
	ImageURL    string `bun:"image_url"`
}

type userBadgeRow struct {
	bun.BaseModel `bun:"table:user_badges,alias:ub"`

	ID      int64 `bun:"id,pk,autoincrement"`
	UserID  int64 `bun:"user_id"`
	BadgeID int64 `bun:"badge_id"`
}

func (r *badgeRow) toDomain() *user.Badge {
	return &user.Badge{ID: r.ID, Slug: r.Slug, Description: r.Description, ImageURL: r.ImageURL}
}

func badgesToDomain(rows []badgeRow) []*user.Badge {
	out := make([]*user.Badge, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out
}

// UserBadgeStore is the SQL implementation of ports.UserBadgeStore over
// the badges and user_badges tables (migration 000030).
type UserBadgeStore struct{ c conn }

// Create inserts b; a slug taken already is a conflict.
func (s *UserBadgeStore) Create(ctx context.Context, b *user.Badge) error {
	row := &badgeRow{Slug: b.Slug, Description: b.Description, ImageURL: b.ImageURL}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return badgeMapping.mapErr(err)
	}
	b.ID = row.ID
	return nil
}

// All lists every badge by slug.
func (s *UserBadgeStore) All(ctx context.Context) ([]*user.Badge, error) {
	var rows []badgeRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).OrderExpr("b.slug ASC").Scan(ctx); err != nil {
		return nil, badgeMapping.mapErr(err)
	}
	return badgesToDomain(rows), nil
}

// Delete deletes the badge; its holdings go by the foreign key's cascade.
func (s *UserBadgeStore) Delete(ctx context.Context, slug string) error {
	res, err := s.c.w(ctx).NewDelete().Model((*badgeRow)(nil)).Where("slug = ?", slug).Exec(ctx)
	return badgeMapping.affected(res, err)
}

// BySlugs probes the slug index once for all slugs.
func (s *UserBadgeStore) BySlugs(ctx context.Context, slugs []string) ([]*user.Badge, error) {
	if len(slugs) == 0 {
		return nil, nil
	}
	var rows []badgeRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("b.slug IN (?)", bun.List(slugs)).
		OrderExpr("b.slug ASC").Scan(ctx); err != nil {
		return nil, badgeMapping.mapErr(err)
	}
	return badgesToDomain(rows), nil
}

// OfUser joins the badges a user holds, in the order they were given.
func (s *UserBadgeStore) OfUser(ctx context.Context, userID int64) ([]*user.Badge, error) {
	var rows []badgeRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN user_badges AS ub ON ub.badge_id = b.id").
		Where("ub.user_id = ?", userID).OrderExpr("ub.id ASC").Scan(ctx); err != nil {
		return nil, badgeMapping.mapErr(err)
	}
	return badgesToDomain(rows), nil
}

// Give inserts the holdings in one statement, skipping the ones held.
func (s *UserBadgeStore) Give(ctx context.Context, userID int64, badgeIDs []int64) error {
	if len(badgeIDs) == 0 {
		return nil
	}
	rows := make([]userBadgeRow, 0, len(badgeIDs))
	for _, id := range badgeIDs {
		rows = append(rows, userBadgeRow{UserID: userID, BadgeID: id})
	}
	_, err := s.c.w(ctx).NewInsert().Model(&rows).ExcludeColumn("id").On("CONFLICT DO NOTHING").Exec(ctx)
	return badgeMapping.mapErr(err)
}

// Take deletes the holdings in one statement.
func (s *UserBadgeStore) Take(ctx context.Context, userID int64, badgeIDs []int64) error {
	if len(badgeIDs) == 0 {
		return nil
	}
	_, err := s.c.w(ctx).NewDelete().Model((*userBadgeRow)(nil)).
		Where("user_id = ?", userID).Where("badge_id IN (?)", bun.List(badgeIDs)).Exec(ctx)
	return badgeMapping.mapErr(err)
}
