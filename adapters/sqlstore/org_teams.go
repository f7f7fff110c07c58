package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// GetMany finds organisations by id in one query.
func (s *OrgStore) GetMany(ctx context.Context, ids []int64) ([]*org.Organization, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []orgRow
	if err := selectOrgs(s.c.r(ctx), &rows).Where("u.id IN (?)", bun.In(ids)).Order("u.id ASC").Scan(ctx); err != nil {
		return nil, orgMapping.mapErr(err)
	}
	out := domainAll(rows, (*orgRow).toDomain)
	return out, nil
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

// RemoveTeamRepo takes a repository from a team.
func (s *OrgStore) RemoveTeamRepo(ctx context.Context, teamID, repoID int64) error {
	res, err := s.c.w(ctx).NewDelete().TableExpr("team_repos").Where("team_id = ?", teamID).Where("repo_id = ?", repoID).Exec(ctx)
	return mapping{op: "team repo", notFound: "repository is not in the team"}.affected(res, err)
}

// RepoTeams returns the teams reaching a repository, by name.
func (s *OrgStore) RepoTeams(ctx context.Context, repoID int64) ([]*org.Team, error) {
	var rows []teamRow
	if err := selectTeams(s.c.r(ctx), &rows).
		Where(`(t.id IN (SELECT tr.team_id FROM team_repos AS tr WHERE tr.repo_id = ?)
			OR (t.includes_all_repos AND t.org_id = (SELECT repo.owner_id FROM repos AS repo WHERE repo.id = ?)))`, repoID, repoID).
		Order("t.lower_name ASC").Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	out := domainAll(rows, (*teamRow).toDomain)
	return out, s.loadUnits(ctx, out)
}
