package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000030, frozen once released: badges and the badges
// users hold. A holding dies with its user and with its badge.
type m000030Badge struct {
	bun.BaseModel `bun:"table:badges"`

	ID          int64  `bun:"id,pk,autoincrement"`
	Slug        string `bun:"slug,type:varchar(255),notnull,unique"`
	Description string `bun:"description,type:text,notnull,default:''"`
	ImageURL    string `bun:"image_url,type:text,notnull,default:''"`
}

type m000030UserBadge struct {
	bun.BaseModel `bun:"table:user_badges"`

	ID      int64 `bun:"id,pk,autoincrement"`
	UserID  int64 `bun:"user_id,notnull"`
	BadgeID int64 `bun:"badge_id,notnull"`
}

func up000030(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000030Badge)(nil)).IfNotExists().Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000030UserBadge)(nil)).IfNotExists().
		ForeignKey(`("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).
		ForeignKey(`("badge_id") REFERENCES "badges" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	// A user holds a badge once; the pair index serves a user's list, the
	// badge index the cascade of a badge's deletion.
	if _, err := tx.NewCreateIndex().Table("user_badges").Index("user_badges_pair").Unique().
		Column("user_id", "badge_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewCreateIndex().Table("user_badges").Index("user_badges_badge").
		Column("badge_id").IfNotExists().Exec(ctx)
	return err
}

func down000030(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewDropTable().Model((*m000030UserBadge)(nil)).IfExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDropTable().Model((*m000030Badge)(nil)).IfExists().Exec(ctx)
	return err
}
