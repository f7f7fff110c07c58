package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// OrgStore implements ports.OrgStore with bun.
type OrgStore struct{ c conn }

var _ ports.OrgStore = (*OrgStore)(nil)

var (
	orgMapping  = mapping{op: "org", notFound: "organization does not exist", conflict: "user already exists"}
	teamMapping = mapping{op: "team", notFound: "team does not exist", conflict: "team already exists",
		missingRef: "organization does not exist"}
	memberMapping = mapping{op: "org member", notFound: "user is not a member of the organization",
		missingRef: "user does not exist"}
)

type orgSettingsRow struct {
	bun.BaseModel `bun:"table:orgs,alias:o"`

	ID                        int64 `bun:"id,pk"`
	RepoAdminChangeTeamAccess bool  `bun:"repo_admin_change_team_access"`
}

// orgRow is an organisation's account row with its settings.
type orgRow struct {
	userRow `bun:",extend"`

	RepoAdminChangeTeamAccess bool `bun:"repo_admin_change_team_access,scanonly"`
}

func (r *orgRow) toDomain() *org.Organization {
	return &org.Organization{User: *r.userRow.toDomain(), RepoAdminChangeTeamAccess: r.RepoAdminChangeTeamAccess}
}

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

type teamUserRow struct {
	bun.BaseModel `bun:"table:team_users,alias:tu"`

	TeamID int64 `bun:"team_id,pk"`
	UserID int64 `bun:"user_id,pk"`
	OrgID  int64 `bun:"org_id"`
}

type orgUserRow struct {
	bun.BaseModel `bun:"table:org_users,alias:ou"`

	OrgID    int64 `bun:"org_id,pk"`
	UserID   int64 `bun:"user_id,pk"`
	IsPublic bool  `bun:"is_public"`
}

// selectOrgs selects organisation rows with their settings into model.
func selectOrgs(db bun.IDB, model any) *bun.SelectQuery {
	return db.NewSelect().Model(model).ColumnExpr("u.*").
		ColumnExpr("COALESCE(o.repo_admin_change_team_access, FALSE) AS repo_admin_change_team_access").
		Join("LEFT JOIN orgs AS o ON o.id = u.id").
		Where("u.kind = ?", int(user.KindOrganization))
}

// Create inserts the account row, the settings, the Owners team with its
// units, and the creator as owner and (private) member, atomically.
func (s *OrgStore) Create(ctx context.Context, o *org.Organization, creatorID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		o.Kind = user.KindOrganization
		row := toUserRow(&o.User)
		row.ID = 0
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return orgMapping.mapErr(err)
		}
		o.ID = row.ID
		if _, err := tx.NewInsert().Model(&orgSettingsRow{ID: o.ID, RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}).
			Exec(ctx); err != nil {
			return orgMapping.mapErr(err)
		}
		team := org.NewOwnersTeam(o.ID)
		if err := insertTeam(ctx, tx, team); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&teamUserRow{TeamID: team.ID, UserID: creatorID, OrgID: o.ID}).Exec(ctx); err != nil {
			return memberMapping.mapErr(err)
		}
		if _, err := tx.NewInsert().Model(&orgUserRow{OrgID: o.ID, UserID: creatorID}).Exec(ctx); err != nil {
			return memberMapping.mapErr(err)
		}
		return nil
	})
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

// Get finds an organisation by id.
func (s *OrgStore) Get(ctx context.Context, id int64) (*org.Organization, error) {
	row := new(orgRow)
	if err := selectOrgs(s.c.r(ctx), row).Where("u.id = ?", id).Scan(ctx); err != nil {
		return nil, orgMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByName finds an organisation by name through the unique lower_name index.
func (s *OrgStore) GetByName(ctx context.Context, name string) (*org.Organization, error) {
	row := new(orgRow)
	if err := selectOrgs(s.c.r(ctx), row).Where("u.lower_name = ?", strings.ToLower(name)).Scan(ctx); err != nil {
		return nil, orgMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Update writes the account row and the settings.
func (s *OrgStore) Update(ctx context.Context, o *org.Organization) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewUpdate().Model(toUserRow(&o.User)).WherePK().ExcludeColumn("id", "num_stars").
			Where("kind = ?", int(user.KindOrganization)).Exec(ctx)
		if err := orgMapping.affected(res, err); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&orgSettingsRow{ID: o.ID, RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}).
			On("CONFLICT (id) DO UPDATE").Set("repo_admin_change_team_access = EXCLUDED.repo_admin_change_team_access").Exec(ctx)
		return orgMapping.mapErr(err)
	})
}

// Delete removes the organisation; teams, units, memberships and settings
// cascade. Owned repositories block it (their owner reference does not cascade).
func (s *OrgStore) Delete(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewDelete().Model((*userRow)(nil)).Where("id = ?", id).
			Where("kind = ?", int(user.KindOrganization)).Exec(ctx)
		if err != nil && violationOf(err) == foreignKeyViolation {
			return errs.Conflict("organization still owns repositories")
		}
		return orgMapping.affected(res, err)
	})
}

// Search returns one page ordered by lower name, and the total.
func (s *OrgStore) Search(ctx context.Context, q ports.OrgSearch) ([]*org.Organization, int64, error) {
	var rows []orgRow
	sel := selectOrgs(s.c.r(ctx), &rows)
	if kw := strings.ToLower(strings.TrimSpace(q.Keyword)); kw != "" {
		pat := likeContains(kw)
		sel = sel.Where("(u.lower_name LIKE ? ESCAPE '!' OR lower(u.full_name) LIKE ? ESCAPE '!')", pat, pat)
	}
	if q.MemberID != 0 {
		member := "u.id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ?)"
		if q.PublicMembershipOnly {
			member = "u.id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ? AND ou.is_public)"
		}
		sel = sel.Where(member, q.MemberID)
	}
	if q.ViewerMemberID != 0 {
		sel = sel.Where("u.id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ?)", q.ViewerMemberID)
	}
	if len(q.Visibilities) > 0 {
		vis := make([]string, len(q.Visibilities))
		for i, v := range q.Visibilities {
			vis[i] = string(v)
		}
		if q.IncludeMemberID != 0 {
			sel = sel.Where("(u.visibility IN (?) OR u.id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ?))",
				bun.List(vis), q.IncludeMemberID)
		} else {
			sel = sel.Where("u.visibility IN (?)", bun.List(vis))
		}
	}
	sel = page(sel.Order("u.lower_name ASC"), q.ListOptions)
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, orgMapping.mapErr(err)
	}
	out := domainAll(rows, (*orgRow).toDomain)
	return out, total, nil
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

// selectTeams selects teams with their member counts.
func selectTeams(db bun.IDB, model any) *bun.SelectQuery {
	return db.NewSelect().Model(model).ColumnExpr("t.*").
		ColumnExpr("(SELECT count(*) FROM team_users AS m WHERE m.team_id = t.id) AS num_members")
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

// addTeamMemberSQL adds the team row and the organisation membership in one
// statement each; both ignore an existing row.
const (
	addTeamUserSQL = `INSERT INTO team_users (team_id, user_id, org_id)
	SELECT t.id, ?1, t.org_id FROM teams AS t WHERE t.id = ?0
	ON CONFLICT DO NOTHING`
	addOrgUserSQL = `INSERT INTO org_users (org_id, user_id, is_public)
	SELECT t.org_id, ?1, FALSE FROM teams AS t WHERE t.id = ?0
	ON CONFLICT DO NOTHING`
	addTeamRepoSQL = `INSERT INTO team_repos (team_id, repo_id, org_id)
	SELECT t.id, repo.id, t.org_id FROM teams AS t JOIN repos AS repo ON repo.owner_id = t.org_id
	WHERE t.id = ?0 AND repo.id = ?1
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

// AddTeamRepo gives the team one of its organisation's repositories.
func (s *OrgStore) AddTeamRepo(ctx context.Context, teamID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.ExecContext(ctx, addTeamRepoSQL, teamID, repoID); err != nil {
			return teamMapping.mapErr(err)
		}
		var n int
		if err := tx.NewRaw("SELECT count(*) FROM team_repos WHERE team_id = ? AND repo_id = ?", teamID, repoID).
			Scan(ctx, &n); err != nil {
			return teamMapping.mapErr(err)
		}
		if n == 0 {
			return errs.NotFound("repository does not exist")
		}
		return nil
	})
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
