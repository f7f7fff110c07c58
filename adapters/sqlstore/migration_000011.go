package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000011, frozen once released: organisations and teams.
//
// An organisation is a users row of kind 1 (one namespace with users); orgs
// holds what only organisations have. A user is a member while in one of
// the organisation's teams; org_users mirrors that (one row per member, kept
// by the store) so that membership and its public flag are one index probe.
// team_users and team_repos carry org_id so that the permission query finds
// a user's teams in one organisation without joining teams first.

type m000011Org struct {
	bun.BaseModel `bun:"table:orgs"`

	ID                        int64 `bun:"id,pk"`
	RepoAdminChangeTeamAccess bool  `bun:"repo_admin_change_team_access,notnull,default:false"`
}

type m000011Team struct {
	bun.BaseModel `bun:"table:teams"`

	ID               int64  `bun:"id,pk,autoincrement"`
	OrgID            int64  `bun:"org_id,notnull"`
	Name             string `bun:"name,notnull"`
	LowerName        string `bun:"lower_name,notnull"`
	Description      string `bun:"description,notnull,default:''"`
	Mode             int    `bun:"mode,notnull,default:0"`
	IncludesAllRepos bool   `bun:"includes_all_repos,notnull,default:false"`
	CanCreateOrgRepo bool   `bun:"can_create_org_repo,notnull,default:false"`
}

type m000011TeamUnit struct {
	bun.BaseModel `bun:"table:team_units"`

	TeamID int64  `bun:"team_id,pk"`
	Unit   string `bun:"unit,pk,type:varchar(32)"`
	Mode   int    `bun:"mode,notnull,default:0"`
}

type m000011TeamUser struct {
	bun.BaseModel `bun:"table:team_users"`

	TeamID int64 `bun:"team_id,pk"`
	UserID int64 `bun:"user_id,pk"`
	OrgID  int64 `bun:"org_id,notnull"`
}

type m000011TeamRepo struct {
	bun.BaseModel `bun:"table:team_repos"`

	TeamID int64 `bun:"team_id,pk"`
	RepoID int64 `bun:"repo_id,pk"`
	OrgID  int64 `bun:"org_id,notnull"`
}

type m000011OrgUser struct {
	bun.BaseModel `bun:"table:org_users"`

	OrgID    int64 `bun:"org_id,pk"`
	UserID   int64 `bun:"user_id,pk"`
	IsPublic bool  `bun:"is_public,notnull,default:false"`
}

const (
	orgRowRef       = `("id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToOrg    = `("org_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToTeam   = `("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE`
	cascadeToMember = `("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`
)

func up000011(ctx context.Context, tx bun.Tx) error {
	tables := []struct {
		model any
		fks   []string
	}{
		{(*m000011Org)(nil), []string{orgRowRef}},
		{(*m000011Team)(nil), []string{cascadeToOrg}},
		{(*m000011TeamUnit)(nil), []string{cascadeToTeam}},
		{(*m000011TeamUser)(nil), []string{cascadeToTeam, cascadeToMember}},
		{(*m000011TeamRepo)(nil), []string{cascadeToTeam, cascadeToRepos}},
		{(*m000011OrgUser)(nil), []string{cascadeToOrg, cascadeToMember}},
	}
	for _, t := range tables {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		for _, fk := range t.fks {
			q = q.ForeignKey(fk)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	indexes := []struct {
		table, name string
		unique      bool
		columns     []string
	}{
		// Team names are unique per organisation, case-insensitively.
		{"teams", "idx_teams_org_name", true, []string{"org_id", "lower_name"}},
		// A user's teams in one organisation (permission, membership).
		{"team_users", "idx_team_users_user_org", false, []string{"user_id", "org_id", "team_id"}},
		// The teams a repository is given to (and the repository cascade).
		{"team_repos", "idx_team_repos_repo", false, []string{"repo_id", "team_id"}},
		// A user's organisations (listings by member).
		{"org_users", "idx_org_users_user", false, []string{"user_id", "org_id"}},
	}
	for _, ix := range indexes {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000011(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000011OrgUser)(nil), (*m000011TeamRepo)(nil), (*m000011TeamUser)(nil),
		(*m000011TeamUnit)(nil), (*m000011Team)(nil), (*m000011Org)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
