package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

type teamUserRow struct {
	bun.BaseModel `bun:"table:team_users,alias:tu"`

	TeamID int64 `bun:"team_id,pk"`
	UserID int64 `bun:"user_id,pk"`
	OrgID  int64 `bun:"org_id"`
}

// addTeamUserSQL and addOrgUserSQL add the team row and the organisation
// membership in one statement each; both ignore an existing row.
const (
	addTeamUserSQL = `INSERT INTO team_users (team_id, user_id, org_id)
	SELECT t.id, ?1, t.org_id FROM teams AS t WHERE t.id = ?0
	ON CONFLICT DO NOTHING`
	addOrgUserSQL = `INSERT INTO org_users (org_id, user_id, is_public)
	SELECT t.org_id, ?1, FALSE FROM teams AS t WHERE t.id = ?0
	ON CONFLICT DO NOTHING`
)

// AddTeamMember puts the user in the team and its organisation.
func (s *OrgStore) AddTeamMember(ctx context.Context, teamID, userID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var n int
		if err := tx.NewSelect().Model((*teamRow)(nil)).ColumnExpr("count(*)").Where("t.id = ?", teamID).
			Scan(ctx, &n); err != nil {
			return teamMapping.mapErr(err)
		}
		if n == 0 {
			return errs.NotFound(teamMapping.notFound)
		}
		for _, q := range []string{addTeamUserSQL, addOrgUserSQL} {
			if _, err := tx.ExecContext(ctx, q, teamID, userID); err != nil {
				return memberMapping.mapErr(err)
			}
		}
		return nil
	})
}

// IsTeamMember reports whether the user is in the team, by primary key.
func (s *OrgStore) IsTeamMember(ctx context.Context, teamID, userID int64) (bool, error) {
	n, err := s.c.r(ctx).NewSelect().Model((*teamUserRow)(nil)).Where("tu.team_id = ?", teamID).
		Where("tu.user_id = ?", userID).Count(ctx)
	if err != nil {
		return false, memberMapping.mapErr(err)
	}
	return n > 0, nil
}

// RemoveTeamMember takes the user out of the team (locked first, so two
// removals from the Owners team cannot both pass the last-owner check) and
// out of the organisation when no team of it is left.
func (s *OrgStore) RemoveTeamMember(ctx context.Context, teamID, userID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "teams", []int64{teamID}); err != nil {
			return teamMapping.mapErr(err)
		}
		row := new(teamRow)
		if err := selectTeams(tx, row).Where("t.id = ?", teamID).Scan(ctx); err != nil {
			return teamMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*teamUserRow)(nil)).Where("team_id = ?", teamID).Where("user_id = ?", userID).Exec(ctx)
		if err := memberMapping.affected(res, err); err != nil {
			return err
		}
		// The count was read before the delete, under the team's lock: a
		// refusal rolls the delete back.
		if err := row.toDomain().CheckRemoveMember(row.NumMembers); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*orgUserRow)(nil)).Where("org_id = ?", row.OrgID).Where("user_id = ?", userID).
			Where("NOT EXISTS (SELECT 1 FROM team_users AS tu WHERE tu.org_id = ? AND tu.user_id = ?)", row.OrgID, userID).Exec(ctx)
		return memberMapping.mapErr(err)
	})
}

// TeamMembers returns one page of a team's members by name.
func (s *OrgStore) TeamMembers(ctx context.Context, teamID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Join("JOIN team_users AS tu ON tu.user_id = u.id").
		Where("tu.team_id = ?", teamID).Order("u.lower_name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, memberMapping.mapErr(err)
	}
	out := domainAll(rows, (*userRow).toDomain)
	return out, int64(total), nil
}
