package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/ports"
)

var _ ports.PackageCleanupRuleStore = (*PackageCleanupRuleStore)(nil)

var cleanupRuleMapping = mapping{op: "package cleanup rule", notFound: "cleanup rule does not exist",
	conflict: "a cleanup rule for this package type already exists", missingRef: "owner does not exist"}

// PackageCleanupRuleStore is the SQL implementation of
// ports.PackageCleanupRuleStore over package_cleanup_rules (migration
// 000052).
type PackageCleanupRuleStore struct{ c conn }

type cleanupRuleRow struct {
	bun.BaseModel `bun:"table:package_cleanup_rules,alias:pcr"`

	ID            int64     `bun:"id,pk,autoincrement"`
	OwnerID       int64     `bun:"owner_id"`
	Type          string    `bun:"type"`
	Enabled       bool      `bun:"enabled"`
	KeepCount     int       `bun:"keep_count"`
	KeepPattern   string    `bun:"keep_pattern"`
	RemoveDays    int       `bun:"remove_days"`
	RemovePattern string    `bun:"remove_pattern"`
	MatchFullName bool      `bun:"match_full_name"`
	Created       time.Time `bun:"created"`
	Updated       time.Time `bun:"updated"`
}

func toCleanupRuleRow(r *packages.CleanupRule) *cleanupRuleRow {
	return &cleanupRuleRow{ID: r.ID, OwnerID: r.OwnerID, Type: string(r.Type), Enabled: r.Enabled,
		KeepCount: r.KeepCount, KeepPattern: r.KeepPattern, RemoveDays: r.RemoveDays,
		RemovePattern: r.RemovePattern, MatchFullName: r.MatchFullName,
		Created: dbTime(r.CreatedAt), Updated: dbTime(r.UpdatedAt)}
}

func (r *cleanupRuleRow) toDomain() *packages.CleanupRule {
	return &packages.CleanupRule{ID: r.ID, OwnerID: r.OwnerID, Type: packages.Type(r.Type), Enabled: r.Enabled,
		KeepCount: r.KeepCount, KeepPattern: r.KeepPattern, RemoveDays: r.RemoveDays,
		RemovePattern: r.RemovePattern, MatchFullName: r.MatchFullName,
		CreatedAt: domainTime(r.Created), UpdatedAt: domainTime(r.Updated)}
}

// Create inserts r and sets r.ID.
func (s *PackageCleanupRuleStore) Create(ctx context.Context, r *packages.CleanupRule) error {
	row := toCleanupRuleRow(r)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return cleanupRuleMapping.mapErr(err)
	}
	r.ID = row.ID
	return nil
}

// Get finds the owner's rule by ID.
func (s *PackageCleanupRuleStore) Get(ctx context.Context, ownerID, id int64) (*packages.CleanupRule, error) {
	row := new(cleanupRuleRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("owner_id = ? AND id = ?", ownerID, id).Scan(ctx); err != nil {
		return nil, cleanupRuleMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List pages the owner's rules by type.
func (s *PackageCleanupRuleStore) List(ctx context.Context, ownerID int64, opts ports.ListOptions) ([]*packages.CleanupRule, int64, error) {
	var rows []cleanupRuleRow
	q := s.c.r(ctx).NewSelect().Model(&rows).Where("owner_id = ?", ownerID).OrderExpr("type ASC")
	total, err := page(q, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, cleanupRuleMapping.mapErr(err)
	}
	return domainAll(rows, (*cleanupRuleRow).toDomain), int64(total), nil
}

// Update writes r's settings and updated time.
func (s *PackageCleanupRuleStore) Update(ctx context.Context, r *packages.CleanupRule) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*cleanupRuleRow)(nil)).
		Set("type = ?", string(r.Type)).Set("enabled = ?", r.Enabled).Set("keep_count = ?", r.KeepCount).
		Set("keep_pattern = ?", r.KeepPattern).Set("remove_days = ?", r.RemoveDays).
		Set("remove_pattern = ?", r.RemovePattern).Set("match_full_name = ?", r.MatchFullName).
		Set("updated = ?", dbTime(r.UpdatedAt)).
		Where("owner_id = ? AND id = ?", r.OwnerID, r.ID).Exec(ctx)
	return cleanupRuleMapping.affected(res, err)
}

// Delete removes the owner's rule by ID.
func (s *PackageCleanupRuleStore) Delete(ctx context.Context, ownerID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*cleanupRuleRow)(nil)).Where("owner_id = ? AND id = ?", ownerID, id).Exec(ctx)
	return cleanupRuleMapping.affected(res, err)
}

// Enabled returns at most n enabled rules above afterID, by ID, through
// the index on (enabled, id).
func (s *PackageCleanupRuleStore) Enabled(ctx context.Context, afterID int64, n int) ([]*packages.CleanupRule, error) {
	var rows []cleanupRuleRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("enabled = ? AND id > ?", true, afterID).
		OrderExpr("id ASC").Limit(int64(n)).Scan(ctx); err != nil {
		return nil, cleanupRuleMapping.mapErr(err)
	}
	return domainAll(rows, (*cleanupRuleRow).toDomain), nil
}
