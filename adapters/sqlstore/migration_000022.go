package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000022, frozen once released: tag protection rules and
// their allowlists of users and teams. The allowlists are rows, not a JSON
// column, so a deleted user or team leaves every rule with it.

// m000022TagProtection is one rule; its pattern is unique in its repository.
type m000022TagProtection struct {
	bun.BaseModel `bun:"table:tag_protections"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id,notnull"`
	NamePattern string    `bun:"name_pattern,type:varchar(255),notnull"`
	Created     time.Time `bun:"created,notnull"`
	Updated     time.Time `bun:"updated,notnull"`
}

// m000022TagProtectionUser allows one user to change the rule's tags.
type m000022TagProtectionUser struct {
	bun.BaseModel `bun:"table:tag_protection_users"`

	RuleID int64 `bun:"rule_id,pk"`
	UserID int64 `bun:"user_id,pk"`
}

// m000022TagProtectionTeam allows the members of one team.
type m000022TagProtectionTeam struct {
	bun.BaseModel `bun:"table:tag_protection_teams"`

	RuleID int64 `bun:"rule_id,pk"`
	TeamID int64 `bun:"team_id,pk"`
}

const (
	tagProtectionToRepo  = `("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`
	tagProtectionToRule  = `("rule_id") REFERENCES "tag_protections" ("id") ON DELETE CASCADE`
	tagProtectionToUser  = `("user_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	tagProtectionToTeam  = `("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE`
	tagProtectionPattern = "tag_protections_repo_pattern"
)

func up000022(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000022TagProtection)(nil)).IfNotExists().
		ForeignKey(tagProtectionToRepo).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateIndex().Table("tag_protections").Index(tagProtectionPattern).Unique().
		Column("repo_id", "name_pattern").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000022TagProtectionUser)(nil)).IfNotExists().
		ForeignKey(tagProtectionToRule).ForeignKey(tagProtectionToUser).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000022TagProtectionTeam)(nil)).IfNotExists().
		ForeignKey(tagProtectionToRule).ForeignKey(tagProtectionToTeam).Exec(ctx); err != nil {
		return err
	}
	// The deletion of a user or a team finds its allowlist rows by index.
	for name, table := range map[string][2]string{
		"idx_tag_protection_users_user": {"tag_protection_users", "user_id"},
		"idx_tag_protection_teams_team": {"tag_protection_teams", "team_id"},
	} {
		if _, err := tx.NewCreateIndex().Table(table[0]).Index(name).Column(table[1]).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000022(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000022TagProtectionTeam)(nil), (*m000022TagProtectionUser)(nil), (*m000022TagProtection)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
