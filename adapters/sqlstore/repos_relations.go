package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/permission"
)

// relationRow is one fact of a user's ties: to a repository (ID is the
// repository's) a collaborator mode ('c') or a team of the user's given it
// ('g', Mode is the team's id); to a team (ID is the team's) its mode on one
// unit ('n'); to an organisation (ID is the organisation's) membership
// ('m'), ownership ('o') or the best mode on one unit of the teams that
// include all its repositories ('a').
type relationRow struct {
	ID   int64  `bun:"id"`
	Kind string `bun:"kind"`
	Unit string `bun:"unit"`
	Mode int64  `bun:"mode"`
}

// relationsSQL gathers every tie of user ?0 to the repositories ?1 (all of
// them), ?2 (those an organisation owns) and their organisations ?3, in one
// statement. Per-organisation facts are read once per organisation, not
// once per repository, so a page of 50 repositories of one organisation
// costs about as much as one. The Owners team is the only team of mode
// owner (?4).
//
// The teams given a repository are found from the repository's side (the
// CROSS JOIN keeps SQLite from starting at the user's teams, which may be
// many) and materialised once; their units are read once per team, not
// once per repository and team, and the best mode per unit is taken in Go.
// A page of 50 repositories shared by a few teams reads a few teams' units
// instead of 50 copies of them.
const relationsSQL = `WITH given AS MATERIALIZED (SELECT tr.repo_id, tr.team_id FROM team_repos AS tr
	CROSS JOIN team_users AS tu WHERE tu.team_id = tr.team_id AND tu.user_id = ?0 AND tr.repo_id IN (?2))
SELECT c.repo_id AS id, 'c' AS kind, '' AS unit, c.mode AS mode
	FROM collaborations AS c WHERE c.user_id = ?0 AND c.repo_id IN (?1)
UNION ALL
SELECT g.repo_id, 'g', '', g.team_id FROM given AS g
UNION ALL
SELECT tun.team_id, 'n', tun.unit, tun.mode FROM team_units AS tun
	WHERE tun.team_id IN (SELECT g.team_id FROM given AS g)
UNION ALL
SELECT ou.org_id, 'm', '', 0 FROM org_users AS ou WHERE ou.user_id = ?0 AND ou.org_id IN (?3)
UNION ALL
SELECT DISTINCT tu.org_id, 'o', '', 0 FROM team_users AS tu
	JOIN teams AS t ON t.id = tu.team_id AND t.mode = ?4
	WHERE tu.user_id = ?0 AND tu.org_id IN (?3)
UNION ALL
SELECT tu.org_id, 'a', tun.unit, MAX(tun.mode) FROM team_users AS tu
	JOIN teams AS t ON t.id = tu.team_id AND t.includes_all_repos
	JOIN team_units AS tun ON tun.team_id = t.id
	WHERE tu.user_id = ?0 AND tu.org_id IN (?3)
	GROUP BY tu.org_id, tun.unit`

// RelationsMany returns userID's ties to each of rs with one query over the
// collaborations, organisation memberships and teams, so that a listing
// computes its permissions without a query per repository.
func (s *RepoStore) RelationsMany(ctx context.Context, rs []permission.Repo, userID int64) (map[int64]permission.Relations, error) {
	out := make(map[int64]permission.Relations, len(rs))
	ids := make([]int64, 0, len(rs))
	var orgRepoIDs, orgIDs []int64
	orgSeen := map[int64]bool{}
	for _, r := range rs {
		out[r.ID] = permission.Relations{IsOwner: userID != 0 && userID == r.OwnerID, CollaboratorMode: permission.ModeNone}
		if userID == 0 || userID == r.OwnerID {
			continue
		}
		ids = append(ids, r.ID)
		if r.OwnerIsOrg {
			orgRepoIDs = append(orgRepoIDs, r.ID)
			if !orgSeen[r.OwnerID] {
				orgSeen[r.OwnerID] = true
				orgIDs = append(orgIDs, r.OwnerID)
			}
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	if len(orgIDs) == 0 {
		return out, s.collaborations(ctx, out, ids, userID)
	}
	var rows []relationRow
	if err := s.c.r(ctx).NewRaw(relationsSQL, userID, bun.List(ids), bun.List(orgRepoIDs), bun.List(orgIDs),
		int(permission.ModeOwner)).Scan(ctx, &rows); err != nil {
		return nil, collaboratorMapping.mapErr(err)
	}
	type orgTies struct {
		member, owner bool
		all           map[permission.Unit]permission.AccessMode
	}
	orgs := make(map[int64]*orgTies, len(orgIDs))
	tiesOf := func(id int64) *orgTies {
		if orgs[id] == nil {
			orgs[id] = &orgTies{}
		}
		return orgs[id]
	}
	type teamGiven struct{ repoID, teamID int64 }
	var given []teamGiven
	teamUnits := map[int64]map[permission.Unit]permission.AccessMode{}
	for _, row := range rows {
		switch row.Kind {
		case "c":
			rel := out[row.ID]
			rel.CollaboratorMode = permission.AccessMode(row.Mode)
			out[row.ID] = rel
		case "g":
			given = append(given, teamGiven{repoID: row.ID, teamID: row.Mode})
		case "n":
			teamUnits[row.ID] = raise(teamUnits[row.ID], permission.Unit(row.Unit), permission.AccessMode(row.Mode))
		case "m":
			tiesOf(row.ID).member = true
		case "o":
			tiesOf(row.ID).owner = true
		case "a":
			t := tiesOf(row.ID)
			t.all = raise(t.all, permission.Unit(row.Unit), permission.AccessMode(row.Mode))
		}
	}
	for _, g := range given {
		rel := out[g.repoID]
		for u, m := range teamUnits[g.teamID] {
			rel.TeamUnits = raise(rel.TeamUnits, u, m)
		}
		out[g.repoID] = rel
	}
	for _, r := range rs {
		t := orgs[r.OwnerID]
		if !r.OwnerIsOrg || t == nil || userID == r.OwnerID {
			continue
		}
		rel := out[r.ID]
		rel.IsOrgMember, rel.IsOrgOwner = t.member, t.owner
		for u, m := range t.all {
			rel.TeamUnits = raise(rel.TeamUnits, u, m)
		}
		out[r.ID] = rel
	}
	return out, nil
}

// raise sets units[u] to m unless it is already higher, allocating the map
// on first use.
func raise(units map[permission.Unit]permission.AccessMode, u permission.Unit, m permission.AccessMode) map[permission.Unit]permission.AccessMode {
	if units == nil {
		units = map[permission.Unit]permission.AccessMode{}
	}
	units[u] = max(units[u], m)
	return units
}

// collaborations fills the collaborator modes of repositories no
// organisation owns, the common case, with the one plain query it needs.
func (s *RepoStore) collaborations(ctx context.Context, out map[int64]permission.Relations, ids []int64, userID int64) error {
	var rows []collaborationRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Column("repo_id", "mode").
		Where("c.user_id = ?", userID).Where("c.repo_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return collaboratorMapping.mapErr(err)
	}
	for _, row := range rows {
		rel := out[row.RepoID]
		rel.CollaboratorMode = permission.AccessMode(row.Mode)
		out[row.RepoID] = rel
	}
	return nil
}
