package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000052, frozen once released: package cleanup rules. An
// owner has at most one rule per package type; rules die with their owner.
// The cleanup task reads the enabled ones.
type m000052CleanupRule struct {
	bun.BaseModel `bun:"table:package_cleanup_rules"`

	ID            int64     `bun:"id,pk,autoincrement"`
	OwnerID       int64     `bun:"owner_id,notnull,unique:package_cleanup_rules_owner_type"`
	Type          string    `bun:"type,type:varchar(32),notnull,unique:package_cleanup_rules_owner_type"`
	Enabled       bool      `bun:"enabled,notnull,default:false"`
	KeepCount     int       `bun:"keep_count,notnull,default:0"`
	KeepPattern   string    `bun:"keep_pattern,type:varchar(512),notnull,default:''"`
	RemoveDays    int       `bun:"remove_days,notnull,default:0"`
	RemovePattern string    `bun:"remove_pattern,type:varchar(512),notnull,default:''"`
	MatchFullName bool      `bun:"match_full_name,notnull,default:false"`
	Created       time.Time `bun:"created,notnull"`
	Updated       time.Time `bun:"updated,notnull"`
}

func up000052(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateTable().Model((*m000052CleanupRule)(nil)).IfNotExists().
		ForeignKey(`("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`).Exec(ctx)
	if err != nil {
		return err
	}
	_, err = tx.NewCreateIndex().Table("package_cleanup_rules").Index("package_cleanup_rules_enabled").
		Column("enabled", "id").IfNotExists().Exec(ctx)
	return err
}

func down000052(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000052CleanupRule)(nil)).IfExists().Exec(ctx)
	return err
}
