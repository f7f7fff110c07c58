package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
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

// Update writes the account row and the settings.
func (s *OrgStore) Update(ctx context.Context, o *org.Organization) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewUpdate().Model(toUserRow(&o.User)).WherePK().ExcludeColumn(accountCounters...).
			Where("kind = ?", int(user.KindOrganization)).Exec(ctx)
		if err := orgMapping.affected(res, err); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&orgSettingsRow{ID: o.ID, RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}).
			On("CONFLICT (id) DO UPDATE").Set("repo_admin_change_team_access = EXCLUDED.repo_admin_change_team_access").Exec(ctx)
		return orgMapping.mapErr(err)
	})
}

// Delete removes the organisation; teams, units, memberships, settings and
// follows cascade, and its followers' counters are recounted. Owned
// repositories block it (their owner reference does not cascade).
func (s *OrgStore) Delete(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		partners, err := followPartners(ctx, tx, id)
		if err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*userRow)(nil)).Where("id = ?", id).
			Where("kind = ?", int(user.KindOrganization)).Exec(ctx)
		if err != nil && violationOf(err) == foreignKeyViolation {
			return errs.Conflict("organization still owns repositories")
		}
		if err := orgMapping.affected(res, err); err != nil {
			return err
		}
		return recountFollows(ctx, tx, partners)
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
