package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
)

// addTeamRepoSQL gives the team the repository when its organisation owns
// it; it ignores an existing row.
const addTeamRepoSQL = `INSERT INTO team_repos (team_id, repo_id, org_id)
	SELECT t.id, repo.id, t.org_id FROM teams AS t JOIN repos AS repo ON repo.owner_id = t.org_id
	WHERE t.id = ?0 AND repo.id = ?1
	ON CONFLICT DO NOTHING`

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
