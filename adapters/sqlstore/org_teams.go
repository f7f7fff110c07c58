package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/ports"
)

type teamRow struct {
	bun.BaseModel `bun:"table:teams,alias:t"`

	ID               int64  `bun:"id,pk,autoincrement"`
	OrgID            int64  `bun:"org_id"`
	Name             string `bun:"name"`
	LowerName        string `bun:"lower_name"`
	Description      string `bun:"description"`
	Mode             int    `bun:"mode"`
	IncludesAllRepos bool   `bun:"includes_all_repos"`
	CanCreateOrgRepo bool   `bun:"can_create_org_repo"`
	NumMembers       int    `bun:"num_members,scanonly"`
}

func (r *teamRow) toDomain() *org.Team {
	return &org.Team{ID: r.ID, OrgID: r.OrgID, Name: r.Name, LowerName: r.LowerName, Description: r.Description,
		Mode: permission.AccessMode(r.Mode), IncludesAllRepositories: r.IncludesAllRepos,
		CanCreateOrgRepo: r.CanCreateOrgRepo, NumMembers: r.NumMembers, Units: map[permission.Unit]permission.AccessMode{}}
}

type teamUnitRow struct {
	bun.BaseModel `bun:"table:team_units,alias:tun"`

	TeamID int64  `bun:"team_id,pk"`
	Unit   string `bun:"unit,pk"`
	Mode   int    `bun:"mode"`
}

// selectTeams selects teams with their member counts.
func selectTeams(db bun.IDB, model any) *bun.SelectQuery {
	return db.NewSelect().Model(model).ColumnExpr("t.*").
		ColumnExpr("(SELECT count(*) FROM team_users AS m WHERE m.team_id = t.id) AS num_members")
}

// insertTeam inserts t and its units and sets t.ID.
func insertTeam(ctx context.Context, tx bun.IDB, t *org.Team) error {
	row := &teamRow{OrgID: t.OrgID, Name: t.Name, LowerName: strings.ToLower(t.Name), Description: t.Description,
		Mode: int(t.Mode), IncludesAllRepos: t.IncludesAllRepositories, CanCreateOrgRepo: t.CanCreateOrgRepo}
	if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return teamMapping.mapErr(err)
	}
	t.ID, t.LowerName = row.ID, row.LowerName
	if len(t.Units) == 0 {
		return nil
	}
	units := make([]teamUnitRow, 0, len(t.Units))
	for _, u := range permission.AllUnits() {
		if m, ok := t.Units[u]; ok {
			units = append(units, teamUnitRow{TeamID: t.ID, Unit: string(u), Mode: int(m)})
		}
	}
	if _, err := tx.NewInsert().Model(&units).Exec(ctx); err != nil {
		return teamMapping.mapErr(err)
	}
	return nil
}

// OwnersTeam returns the organisation's Owners team and its units.
func (s *OrgStore) OwnersTeam(ctx context.Context, orgID int64) (*org.Team, error) {
	row := new(teamRow)
	if err := selectTeams(s.c.r(ctx), row).Where("t.org_id = ?", orgID).Where("t.mode = ?", int(permission.ModeOwner)).
		Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	teams := []*org.Team{row.toDomain()}
	if err := s.loadUnits(ctx, teams); err != nil {
		return nil, err
	}
	return teams[0], nil
}

// TeamsOf returns the organisation's teams userID belongs to, by name.
func (s *OrgStore) TeamsOf(ctx context.Context, orgID, userID int64) ([]*org.Team, error) {
	var rows []teamRow
	if err := selectTeams(s.c.r(ctx), &rows).Where("t.org_id = ?", orgID).
		Where("t.id IN (SELECT tu.team_id FROM team_users AS tu WHERE tu.user_id = ? AND tu.org_id = ?)", userID, orgID).
		Order("t.lower_name ASC").Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	out := domainAll(rows, (*teamRow).toDomain)
	return out, s.loadUnits(ctx, out)
}

// loadUnits fills the units of teams with one query.
func (s *OrgStore) loadUnits(ctx context.Context, teams []*org.Team) error {
	if len(teams) == 0 {
		return nil
	}
	byID := make(map[int64]*org.Team, len(teams))
	ids := make([]int64, len(teams))
	for i, t := range teams {
		byID[t.ID], ids[i] = t, t.ID
	}
	var rows []teamUnitRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("tun.team_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return teamMapping.mapErr(err)
	}
	for _, r := range rows {
		byID[r.TeamID].Units[permission.Unit(r.Unit)] = permission.AccessMode(r.Mode)
	}
	return nil
}

// CreateTeam inserts t with its units.
func (s *OrgStore) CreateTeam(ctx context.Context, t *org.Team) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error { return insertTeam(ctx, tx, t) })
}

// GetTeam finds a team by id with its units and member count.
func (s *OrgStore) GetTeam(ctx context.Context, id int64) (*org.Team, error) {
	row := new(teamRow)
	if err := selectTeams(s.c.r(ctx), row).Where("t.id = ?", id).Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	teams := []*org.Team{row.toDomain()}
	if err := s.loadUnits(ctx, teams); err != nil {
		return nil, err
	}
	return teams[0], nil
}

// scanTeams runs a team page query, counts it, and loads the page's units.
func (s *OrgStore) scanTeams(ctx context.Context, sel *bun.SelectQuery, rows *[]teamRow, opts ports.ListOptions) ([]*org.Team, int64, error) {
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, teamMapping.mapErr(err)
	}
	out := make([]*org.Team, len(*rows))
	for i := range *rows {
		out[i] = (*rows)[i].toDomain()
	}
	return out, int64(total), s.loadUnits(ctx, out)
}

// ListTeams returns one page of an organisation's teams by name.
func (s *OrgStore) ListTeams(ctx context.Context, orgID int64, keyword string, includeDesc bool, opts ports.ListOptions) ([]*org.Team, int64, error) {
	var rows []teamRow
	sel := selectTeams(s.c.r(ctx), &rows).Where("t.org_id = ?", orgID)
	if kw := strings.ToLower(strings.TrimSpace(keyword)); kw != "" {
		pat := likeContains(kw)
		if includeDesc {
			sel = sel.Where("(t.lower_name LIKE ? ESCAPE '!' OR lower(t.description) LIKE ? ESCAPE '!')", pat, pat)
		} else {
			sel = sel.Where("t.lower_name LIKE ? ESCAPE '!'", pat)
		}
	}
	return s.scanTeams(ctx, sel.Order("t.lower_name ASC"), &rows, opts)
}

// TeamsOfUser returns one page of the user's teams across organisations.
func (s *OrgStore) TeamsOfUser(ctx context.Context, userID int64, opts ports.ListOptions) ([]*org.Team, int64, error) {
	var rows []teamRow
	sel := selectTeams(s.c.r(ctx), &rows).
		Where("t.id IN (SELECT tu.team_id FROM team_users AS tu WHERE tu.user_id = ?)", userID).Order("t.id ASC")
	return s.scanTeams(ctx, sel, &rows, opts)
}

// GetTeamByName finds a team of an organisation through its unique name index.
func (s *OrgStore) GetTeamByName(ctx context.Context, orgID int64, name string) (*org.Team, error) {
	row := new(teamRow)
	if err := selectTeams(s.c.r(ctx), row).Where("t.org_id = ?", orgID).Where("t.lower_name = ?", strings.ToLower(name)).
		Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	teams := []*org.Team{row.toDomain()}
	return teams[0], s.loadUnits(ctx, teams)
}

// UpdateTeam writes the team's row and replaces its units.
func (s *OrgStore) UpdateTeam(ctx context.Context, t *org.Team) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := &teamRow{ID: t.ID, OrgID: t.OrgID, Name: t.Name, LowerName: strings.ToLower(t.Name), Description: t.Description,
			Mode: int(t.Mode), IncludesAllRepos: t.IncludesAllRepositories, CanCreateOrgRepo: t.CanCreateOrgRepo}
		res, err := tx.NewUpdate().Model(row).WherePK().ExcludeColumn("id", "org_id").Exec(ctx)
		if err := teamMapping.affected(res, err); err != nil {
			return err
		}
		t.LowerName = row.LowerName
		if _, err := tx.NewDelete().Model((*teamUnitRow)(nil)).Where("team_id = ?", t.ID).Exec(ctx); err != nil {
			return teamMapping.mapErr(err)
		}
		units := make([]teamUnitRow, 0, len(t.Units))
		for _, u := range permission.AllUnits() {
			if m, ok := t.Units[u]; ok {
				units = append(units, teamUnitRow{TeamID: t.ID, Unit: string(u), Mode: int(m)})
			}
		}
		if len(units) == 0 {
			return nil
		}
		_, err = tx.NewInsert().Model(&units).Exec(ctx)
		return teamMapping.mapErr(err)
	})
}

// dropLoneMembersSQL removes the organisation memberships of users no team
// of the organisation holds any more.
const dropLoneMembersSQL = `DELETE FROM org_users WHERE org_id = ?
	AND NOT EXISTS (SELECT 1 FROM team_users AS tu WHERE tu.org_id = org_users.org_id AND tu.user_id = org_users.user_id)`

// DeleteTeam removes a team; units, members and repositories cascade, and
// members left in no team leave the organisation.
func (s *OrgStore) DeleteTeam(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var orgID int64
		if err := tx.NewSelect().Model((*teamRow)(nil)).Column("org_id").Where("t.id = ?", id).Scan(ctx, &orgID); err != nil {
			return teamMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*teamRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err := teamMapping.affected(res, err); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, dropLoneMembersSQL, orgID)
		return memberMapping.mapErr(err)
	})
}
