package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// repoSorts maps RepoSearch.Sort to its column; "" and unknown sorts are by id.
var repoSorts = map[string]string{
	"":        "repo.id",
	"id":      "repo.id",
	"alpha":   "repo.lower_name",
	"created": "repo.created",
	"updated": "repo.updated",
	"size":    "repo.size",
	"stars":   "repo.num_stars",
	"forks":   "repo.num_forks",
}

// collaboratesOn is true when the user (the argument) collaborates on repo.
const collaboratesOn = "EXISTS (SELECT 1 FROM collaborations AS c WHERE c.repo_id = repo.id AND c.user_id = ?)"

// teamReaches is true when the user (the argument, three times) reaches
// repo through an organisation: a team given it, a team with all of its
// organisation's repositories, or, for a public repository, membership
// (members see their organisation's public repositories even when the
// organisation is private). The subqueries do not depend on the row, so
// each is computed once as a set and probed per row.
const teamReaches = "(" + teamGivenSet + " OR " + teamAllSet + " OR " + memberPublicSet + ")"

// teamReachesPerRow is teamReaches testing the teams given each candidate
// from the candidate's side (two index probes) instead of building the set
// of every repository the user's teams were given: for a page that walks an
// index and stops at its LIMIT, which tests a few dozen candidates while
// the set may hold thousands of repositories. The organisation sets stay
// sets: they hold a few organisations.
const teamReachesPerRow = "(" + teamGivenRow + " OR " + teamAllSet + " OR " + memberPublicSet + ")"

const (
	teamGivenSet    = "repo.id IN (SELECT tr.repo_id FROM team_repos AS tr JOIN team_users AS tu ON tu.team_id = tr.team_id WHERE tu.user_id = ?)"
	teamGivenRow    = "EXISTS (SELECT 1 FROM team_repos AS tr JOIN team_users AS tu ON tu.team_id = tr.team_id AND tu.user_id = ? WHERE tr.repo_id = repo.id)"
	teamAllSet      = "repo.owner_id IN (SELECT tu.org_id FROM team_users AS tu JOIN teams AS t ON t.id = tu.team_id WHERE tu.user_id = ? AND t.includes_all_repos)"
	memberPublicSet = "(NOT repo.private AND repo.owner_id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ?))"
)

// teamRepos is true when the team (the argument, twice) reaches repo.
const teamRepos = `(repo.id IN (SELECT tr.repo_id FROM team_repos AS tr WHERE tr.team_id = ?)
	OR repo.owner_id IN (SELECT t.org_id FROM teams AS t WHERE t.id = ? AND t.includes_all_repos))`

// teamGiven is teamReaches without the public rule (the argument twice),
// for restricted users, who see only what they are given.
const teamGiven = "(" + teamGivenSet + " OR " + teamAllSet + ")"

// teamGivenPerRow is teamGiven probed per candidate (see teamReachesPerRow).
const teamGivenPerRow = "(" + teamGivenRow + " OR " + teamAllSet + ")"

// Search returns one page of the repositories matching q that q.Viewer may
// see, with their owners, and the total: one query for the page and one
// count, whatever the page size.
func (s *RepoStore) Search(ctx context.Context, q ports.RepoSearch) ([]*repository.Repository, int64, error) {
	var rows []repoOwnerRow
	sel := selectRepos(s.c.r(ctx), &rows)
	// An account's own listing walks the owner's index in its order and
	// stops at the LIMIT (idx_repos_owner_id by id, the owner and name
	// key by name): it tests a page's worth of candidates, so they are
	// probed one by one rather than against the sets of everything the
	// viewer reaches, which the count, testing every candidate, builds.
	perRow := q.OwnerID != 0 && q.Exclusive && q.Limit > 0
	// The filters come first: SQLite tests a row's conditions in order, and
	// a keyword usually rejects most rows before their visibility is tested.
	sel = repoFilters(sel, q)
	sel = repoVisible(sel, q.Viewer, perRow)

	col, ok := repoSorts[q.Sort]
	if !ok {
		col = repoSorts[""]
	}
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	// Ties are broken by id in the same direction, so Desc is the exact
	// reverse of the ascending order and pages never overlap.
	sel = sel.OrderExpr(col + dir)
	if col == "repo.lower_name" {
		// Ties (one name, several owners) follow idx_repos_search's other
		// columns, so the page walks that index in order and stops at its
		// LIMIT; ordering them by id would sort every match first.
		sel = sel.OrderExpr("repo.private" + dir).OrderExpr("repo.owner_id" + dir)
	}
	if col != "repo.id" {
		sel = sel.OrderExpr("repo.id" + dir)
	}

	if err := page(sel, q.ListOptions).Scan(ctx); err != nil {
		return nil, 0, repoMapping.mapErr(err)
	}
	total, ok := totalFromPage(q.ListOptions, len(rows))
	if !ok {
		n, err := s.countSearch(ctx, q)
		if err != nil {
			return nil, 0, repoMapping.mapErr(err)
		}
		total = n
	}
	return reposToDomain(rows), total, nil
}

// totalFromPage returns the total a page implies: a short, non-empty page (or
// an empty first page) is the last one, so the common case of a selective
// keyword costs one query, not two.
func totalFromPage(o ports.ListOptions, n int) (int64, bool) {
	if o.Limit <= 0 || n < o.Limit && (n > 0 || o.Offset() == 0) {
		return int64(o.Offset() + n), true
	}
	return 0, false
}

// countSearch counts what Search matches. It reads only the repositories
// (and their owners for an "owner/name" keyword), not the columns and the
// pending-transfer join the page needs: the count scans every match, so
// what it joins is paid per row.
func (s *RepoStore) countSearch(ctx context.Context, q ports.RepoSearch) (int64, error) {
	db := s.c.r(ctx)
	sel := db.NewSelect().TableExpr("repos AS repo")
	if _, _, byOwner := ownerAndName(q.Keyword); byOwner && !q.TopicOnly {
		sel = sel.Join("JOIN users AS u ON u.id = repo.owner_id")
	}
	sel = repoVisibleTo(repoFilters(sel, q), q.Viewer)
	n, err := sel.Count(ctx)
	return int64(n), err
}

// ownerHides is true when repo's owner is one of the accounts whose
// visibility is listed (the argument): those that hide their repositories
// from the viewer. The set is small (private accounts, and for anonymous
// viewers limited ones too), is read once per query through
// idx_users_visibility, and each candidate probes it by owner_id, a column
// of idx_repos_search. So a count reads that index alone, and a sorted page
// walks the sort column's index and stops at its LIMIT, with no join of the
// owner per candidate.
const ownerHides = "repo.owner_id IN (SELECT hu.id FROM users AS hu WHERE hu.visibility IN (?))"

// collaborationSet is true when the user (the argument) collaborates on
// repo: the set of the user's collaborations, built once, probed by id.
const collaborationSet = "repo.id IN (SELECT c.repo_id FROM collaborations AS c WHERE c.user_id = ?)"

// repoVisibleTo keeps what v may see. Public-only viewers (and anonymous
// ones) see public repositories of public owners; restricted users only what
// they own or collaborate on; other users also public repositories of public
// and limited owners; site admins everything. Every test reads only the
// repository's row and small per-viewer sets (see ownerHides).
func repoVisibleTo(sel *bun.SelectQuery, v ports.RepoViewer) *bun.SelectQuery {
	return repoVisible(sel, v, false)
}

// repoVisible is repoVisibleTo; with perRow the collaborations and the teams
// given a candidate are probed from the candidate's side instead of as sets
// (see teamReachesPerRow).
func repoVisible(sel *bun.SelectQuery, v ports.RepoViewer, perRow bool) *bun.SelectQuery {
	collab, given, reaches := collaborationSet, teamGiven, teamReaches
	if perRow {
		collab, given, reaches = collaboratesOn, teamGivenPerRow, teamReachesPerRow
	}
	switch {
	case v.PublicOnly || v.UserID == 0:
		return sel.Where("NOT repo.private").Where("NOT "+ownerHides,
			bun.List([]string{string(user.VisibilityLimited), string(user.VisibilityPrivate)}))
	case v.IsAdmin:
		return sel
	case v.Restricted:
		return sel.Where("(repo.owner_id = ? OR "+collab+" OR "+given+")", v.UserID, v.UserID, v.UserID, v.UserID)
	default:
		// Most rows are public: their test comes first, so the collaboration
		// and team sets are probed only for the others.
		return sel.Where("((NOT repo.private AND NOT "+ownerHides+") OR repo.owner_id = ? OR "+collab+" OR "+reaches+")",
			bun.List([]string{string(user.VisibilityPrivate)}), v.UserID, v.UserID, v.UserID, v.UserID, v.UserID)
	}
}

// keywordFilter keeps the repositories kw matches, as Gitea reads it: kw is
// a comma-separated list of pieces, any of which may match; a piece matches
// a repository whose name contains it or that has a topic containing it (or,
// with IncludeDescription, whose description contains it); "owner/name"
// also matches by owner and name. With TopicOnly a piece must equal a topic.
func keywordFilter(sel *bun.SelectQuery, kw string, q ports.RepoSearch) *bun.SelectQuery {
	var pieces []string
	for _, p := range strings.Split(kw, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pieces = append(pieces, p)
		}
	}
	if len(pieces) == 0 {
		return sel
	}
	topicCond := "tp.name IN (?)"
	topicArgs := []any{bun.List(pieces)}
	if !q.TopicOnly {
		var conds []string
		topicArgs = topicArgs[:0]
		for _, p := range pieces {
			conds = append(conds, contains(sel, "tp.name"))
			topicArgs = append(topicArgs, p)
		}
		topicCond = strings.Join(conds, " OR ")
	}
	// The topics are matched once, by a subquery the planner builds a set
	// from, not once per repository.
	var ors []string
	var args []any
	if !q.TopicOnly {
		for _, p := range pieces {
			ors = append(ors, contains(sel, "repo.lower_name"))
			args = append(args, p)
			if q.IncludeDescription {
				ors = append(ors, contains(sel, "lower(repo.description)"))
				args = append(args, p)
			}
		}
		if owner, name, ok := ownerAndName(kw); ok {
			ors = append(ors, "("+contains(sel, "u.lower_name")+" AND "+contains(sel, "repo.lower_name")+")")
			args = append(args, owner, name)
		}
	}
	// Last: the cheaper tests on the row itself usually decide first.
	ors = append(ors, "repo.id IN (SELECT rt.repo_id FROM repo_topics AS rt JOIN topics AS tp ON tp.id = rt.topic_id WHERE "+topicCond+")")
	args = append(args, topicArgs...)
	return sel.Where("("+strings.Join(ors, " OR ")+")", args...)
}

// ownerAndName splits a keyword of the form "owner/name" (one slash), which
// Gitea also matches against the owner and the name.
func ownerAndName(kw string) (owner, name string, ok bool) {
	if strings.Count(kw, "/") != 1 {
		return "", "", false
	}
	owner, name, _ = strings.Cut(kw, "/")
	return strings.TrimSpace(owner), strings.TrimSpace(name), true
}

// contains is the condition "expr contains the argument", as a plain
// substring search: instr/strpos need no pattern escaping and cost less per
// row than LIKE with an escape character, and every match is scanned anyway.
func contains(sel *bun.SelectQuery, expr string) string {
	if sel.Dialect().Name() == dialect.PG {
		return "strpos(" + expr + ", ?) > 0"
	}
	return "instr(" + expr + ", ?) > 0"
}

// repoFilters applies q's optional filters.
func repoFilters(sel *bun.SelectQuery, q ports.RepoSearch) *bun.SelectQuery {
	if kw := strings.ToLower(strings.TrimSpace(q.Keyword)); kw != "" {
		sel = keywordFilter(sel, kw, q)
	}
	if q.TeamID != 0 {
		sel = sel.Where(teamRepos, q.TeamID, q.TeamID)
	}
	if q.OwnerID != 0 {
		switch {
		case q.Collaborative:
			sel = sel.Where("repo.owner_id <> ?", q.OwnerID).Where(collaboratesOn, q.OwnerID)
		case q.Exclusive:
			sel = sel.Where("repo.owner_id = ?", q.OwnerID)
		default:
			sel = sel.Where("(repo.owner_id = ? OR "+collaboratesOn+")", q.OwnerID, q.OwnerID)
		}
	}
	if q.ExcludePrivate {
		sel = sel.Where("NOT repo.private")
	}
	flags := []struct {
		col string
		v   *bool
	}{
		{"repo.private", q.IsPrivate}, {"repo.template", q.Template},
		{"repo.archived", q.Archived}, {"repo.is_mirror", q.Mirror},
	}
	for _, f := range flags {
		if f.v != nil {
			sel = sel.Where("? = ?", bun.Safe(f.col), *f.v)
		}
	}
	if q.Fork != nil {
		if *q.Fork {
			sel = sel.Where("repo.fork_id <> 0")
		} else {
			sel = sel.Where("repo.fork_id = 0")
		}
	}
	if q.ForkOf != 0 {
		sel = sel.Where("repo.fork_id = ?", q.ForkOf)
	}
	if q.StarredBy != 0 {
		sel = sel.Where("EXISTS (SELECT 1 FROM stars AS s WHERE s.repo_id = repo.id AND s.user_id = ?)", q.StarredBy)
	}
	if q.WatchedBy != 0 {
		sel = sel.Where("EXISTS (SELECT 1 FROM watches AS w WHERE w.repo_id = repo.id AND w.user_id = ? AND w.mode IN (?))",
			q.WatchedBy, bun.List([]int{repository.WatchNormal, repository.WatchAuto}))
	}
	return sel
}
