package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/ports"
)

var tagProtectionMapping = mapping{
	op: "tag protection", notFound: "tag protection does not exist", conflict: "tag protection already exists",
	missingRef: "repository, user or team does not exist",
}

var _ ports.TagProtectionStore = (*TagProtectionStore)(nil)

// TagProtectionStore is the SQL implementation of ports.TagProtectionStore.
type TagProtectionStore struct{ c conn }

// Create inserts r and its allowlists in one transaction and sets r.ID.
func (s *TagProtectionStore) Create(ctx context.Context, r *protection.TagRule) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := toTagProtectionRow(r)
		row.ID = 0
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return tagProtectionMapping.mapErr(err)
		}
		if err := insertTagAllowlists(ctx, tx, row.ID, r); err != nil {
			return err
		}
		r.ID = row.ID
		return nil
	})
}

// Get returns one of the repository's rules with its allowlists.
func (s *TagProtectionStore) Get(ctx context.Context, repoID, id int64) (*protection.TagRule, error) {
	row := new(tagProtectionRow)
	db := s.c.r(ctx)
	if err := db.NewSelect().Model(row).Where("tp.repo_id = ?", repoID).Where("tp.id = ?", id).Scan(ctx); err != nil {
		return nil, tagProtectionMapping.mapErr(err)
	}
	out := []*protection.TagRule{row.toDomain()}
	if err := loadTagAllowlists(ctx, db, out); err != nil {
		return nil, err
	}
	return out[0], nil
}

// List returns one page of the repository's rules ordered by id, and the
// total: one query for the page, one per allowlist for the whole page.
func (s *TagProtectionStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*protection.TagRule, int64, error) {
	var rows []tagProtectionRow
	db := s.c.r(ctx)
	sel := db.NewSelect().Model(&rows).Where("tp.repo_id = ?", repoID).OrderExpr("tp.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, tagProtectionMapping.mapErr(err)
	}
	out := domainAll(rows, (*tagProtectionRow).toDomain)
	if err := loadTagAllowlists(ctx, db, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// ListAll returns every rule of the repository ordered by id.
func (s *TagProtectionStore) ListAll(ctx context.Context, repoID int64) ([]*protection.TagRule, error) {
	var rows []tagProtectionRow
	db := s.c.r(ctx)
	if err := db.NewSelect().Model(&rows).Where("tp.repo_id = ?", repoID).OrderExpr("tp.id ASC").Scan(ctx); err != nil {
		return nil, tagProtectionMapping.mapErr(err)
	}
	out := domainAll(rows, (*tagProtectionRow).toDomain)
	if err := loadTagAllowlists(ctx, db, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Update writes r's pattern and Updated time and replaces its allowlists.
func (s *TagProtectionStore) Update(ctx context.Context, r *protection.TagRule) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewUpdate().Model((*tagProtectionRow)(nil)).
			Set("name_pattern = ?", r.NamePattern).Set("updated = ?", dbTime(r.Updated)).
			Where("repo_id = ?", r.RepoID).Where("id = ?", r.ID).Exec(ctx)
		if err := tagProtectionMapping.affected(res, err); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*tagProtectionUserRow)(nil)).Where("rule_id = ?", r.ID).Exec(ctx); err != nil {
			return tagProtectionMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*tagProtectionTeamRow)(nil)).Where("rule_id = ?", r.ID).Exec(ctx); err != nil {
			return tagProtectionMapping.mapErr(err)
		}
		return insertTagAllowlists(ctx, tx, r.ID, r)
	})
}

// Delete removes one of the repository's rules; its allowlists go with it.
func (s *TagProtectionStore) Delete(ctx context.Context, repoID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*tagProtectionRow)(nil)).Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
	return tagProtectionMapping.affected(res, err)
}

// insertTagAllowlists writes the allowlist rows of rule id, duplicates dropped.
func insertTagAllowlists(ctx context.Context, tx bun.IDB, id int64, r *protection.TagRule) error {
	var users []tagProtectionUserRow
	for _, u := range tagUniqueIDs(r.AllowlistUserIDs) {
		users = append(users, tagProtectionUserRow{RuleID: id, UserID: u})
	}
	if len(users) > 0 {
		if _, err := tx.NewInsert().Model(&users).Exec(ctx); err != nil {
			return tagAllowlistErr(err, "user does not exist")
		}
	}
	var teams []tagProtectionTeamRow
	for _, t := range tagUniqueIDs(r.AllowlistTeamIDs) {
		teams = append(teams, tagProtectionTeamRow{RuleID: id, TeamID: t})
	}
	if len(teams) > 0 {
		if _, err := tx.NewInsert().Model(&teams).Exec(ctx); err != nil {
			return tagAllowlistErr(err, "team does not exist")
		}
	}
	return nil
}

// tagAllowlistErr names what an allowlist row referred to that is gone.
func tagAllowlistErr(err error, missing string) error {
	if violationOf(err) == foreignKeyViolation {
		return errs.NotFound(missing)
	}
	return tagProtectionMapping.mapErr(err)
}

// loadTagAllowlists fills the allowlists of rules, ordered by id, with one
// query per allowlist.
func loadTagAllowlists(ctx context.Context, db bun.IDB, rules []*protection.TagRule) error {
	if len(rules) == 0 {
		return nil
	}
	byID := make(map[int64]*protection.TagRule, len(rules))
	ids := make([]int64, 0, len(rules))
	for _, r := range rules {
		byID[r.ID] = r
		ids = append(ids, r.ID)
	}
	var users []tagProtectionUserRow
	if err := db.NewSelect().Model(&users).Where("tpu.rule_id IN (?)", bun.In(ids)).
		OrderExpr("tpu.rule_id ASC, tpu.user_id ASC").Scan(ctx); err != nil {
		return tagProtectionMapping.mapErr(err)
	}
	for _, u := range users {
		r := byID[u.RuleID]
		r.AllowlistUserIDs = append(r.AllowlistUserIDs, u.UserID)
	}
	var teams []tagProtectionTeamRow
	if err := db.NewSelect().Model(&teams).Where("tpt.rule_id IN (?)", bun.In(ids)).
		OrderExpr("tpt.rule_id ASC, tpt.team_id ASC").Scan(ctx); err != nil {
		return tagProtectionMapping.mapErr(err)
	}
	for _, t := range teams {
		r := byID[t.RuleID]
		r.AllowlistTeamIDs = append(r.AllowlistTeamIDs, t.TeamID)
	}
	return nil
}

// tagUniqueIDs is ids without repeats, in their first order.
func tagUniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

type tagProtectionRow struct {
	bun.BaseModel `bun:"table:tag_protections,alias:tp"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id"`
	NamePattern string    `bun:"name_pattern"`
	Created     time.Time `bun:"created"`
	Updated     time.Time `bun:"updated"`
}

type tagProtectionUserRow struct {
	bun.BaseModel `bun:"table:tag_protection_users,alias:tpu"`

	RuleID int64 `bun:"rule_id,pk"`
	UserID int64 `bun:"user_id,pk"`
}

type tagProtectionTeamRow struct {
	bun.BaseModel `bun:"table:tag_protection_teams,alias:tpt"`

	RuleID int64 `bun:"rule_id,pk"`
	TeamID int64 `bun:"team_id,pk"`
}

func toTagProtectionRow(r *protection.TagRule) *tagProtectionRow {
	return &tagProtectionRow{ID: r.ID, RepoID: r.RepoID, NamePattern: r.NamePattern,
		Created: dbTime(r.Created), Updated: dbTime(r.Updated)}
}

func (r *tagProtectionRow) toDomain() *protection.TagRule {
	return &protection.TagRule{ID: r.ID, RepoID: r.RepoID, NamePattern: r.NamePattern,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated)}
}
