package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

type orgUserRow struct {
	bun.BaseModel `bun:"table:org_users,alias:ou"`

	OrgID    int64 `bun:"org_id,pk"`
	UserID   int64 `bun:"user_id,pk"`
	IsPublic bool  `bun:"is_public"`
}

// membershipSQL reads a user's ties to one organisation in one row.
const membershipSQL = `SELECT
	EXISTS (SELECT 1 FROM org_users WHERE org_id = ?0 AND user_id = ?1) AS is_member,
	COALESCE((SELECT is_public FROM org_users WHERE org_id = ?0 AND user_id = ?1), FALSE) AS is_public,
	EXISTS (SELECT 1 FROM team_users AS tu JOIN teams AS t ON t.id = tu.team_id
		WHERE tu.user_id = ?1 AND tu.org_id = ?0 AND t.mode = ?2) AS is_owner,
	EXISTS (SELECT 1 FROM team_users AS tu JOIN teams AS t ON t.id = tu.team_id
		WHERE tu.user_id = ?1 AND tu.org_id = ?0 AND t.can_create_org_repo) AS can_create,
	COALESCE((SELECT MAX(t.mode) FROM team_users AS tu JOIN teams AS t ON t.id = tu.team_id
		WHERE tu.user_id = ?1 AND tu.org_id = ?0), 0) AS max_mode`

// Membership returns userID's ties to the organisation with one query.
func (s *OrgStore) Membership(ctx context.Context, orgID, userID int64) (org.Membership, error) {
	if userID == 0 {
		return org.Membership{}, nil
	}
	var row struct {
		IsMember  bool `bun:"is_member"`
		IsPublic  bool `bun:"is_public"`
		IsOwner   bool `bun:"is_owner"`
		CanCreate bool `bun:"can_create"`
		MaxMode   int  `bun:"max_mode"`
	}
	if err := s.c.r(ctx).NewRaw(membershipSQL, orgID, userID, int(permission.ModeOwner)).Scan(ctx, &row); err != nil {
		return org.Membership{}, memberMapping.mapErr(err)
	}
	return org.Membership{IsMember: row.IsMember, IsPublic: row.IsPublic, IsOwner: row.IsOwner,
		CanCreateRepo: row.CanCreate, MaxMode: permission.AccessMode(row.MaxMode)}, nil
}

// Members returns one page of the organisation's members ordered by name.
func (s *OrgStore) Members(ctx context.Context, orgID int64, publicOnly bool, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Join("JOIN org_users AS ou ON ou.user_id = u.id").
		Where("ou.org_id = ?", orgID)
	if publicOnly {
		sel = sel.Where("ou.is_public")
	}
	total, err := page(sel.Order("u.lower_name ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, memberMapping.mapErr(err)
	}
	out := domainAll(rows, (*userRow).toDomain)
	return out, total, nil
}

// SetPublic shows or hides a member's membership.
func (s *OrgStore) SetPublic(ctx context.Context, orgID, userID int64, public bool) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*orgUserRow)(nil)).Set("is_public = ?", public).
		Where("org_id = ?", orgID).Where("user_id = ?", userID).Exec(ctx)
	return memberMapping.affected(res, err)
}

// RemoveMember takes the user out of every team of the organisation and
// drops the membership, unless the user is its last owner. The Owners team
// row is locked first, so two owners removed at once cannot both pass the
// last-owner check.
func (s *OrgStore) RemoveMember(ctx context.Context, orgID, userID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		owners := new(teamRow)
		if err := tx.NewSelect().Model(owners).Where("t.org_id = ?", orgID).Where("t.mode = ?", int(permission.ModeOwner)).
			Scan(ctx); err != nil {
			return teamMapping.mapErr(err)
		}
		if err := lockRows(ctx, tx, "teams", []int64{owners.ID}); err != nil {
			return teamMapping.mapErr(err)
		}
		var count struct {
			Members int  `bun:"members"`
			IsOwner bool `bun:"is_owner"`
		}
		if err := tx.NewRaw(`SELECT count(*) AS members, COALESCE(SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END), 0) > 0 AS is_owner
			FROM team_users WHERE team_id = ?`, userID, owners.ID).Scan(ctx, &count); err != nil {
			return teamMapping.mapErr(err)
		}
		if count.IsOwner {
			if err := owners.toDomain().CheckRemoveMember(count.Members); err != nil {
				return err
			}
		}
		if _, err := tx.NewDelete().Model((*teamUserRow)(nil)).Where("org_id = ?", orgID).
			Where("user_id = ?", userID).Exec(ctx); err != nil {
			return memberMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*orgUserRow)(nil)).Where("org_id = ?", orgID).
			Where("user_id = ?", userID).Exec(ctx)
		return memberMapping.affected(res, err)
	})
}
