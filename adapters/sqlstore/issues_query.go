package sqlstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/ports"
)

// issueSorts are the orders of IssueQuery.Sort, each ending in a unique
// key so pages never overlap. "" and unknown sorts are "latest", which
// reads the listing indexes (migration 000012) in order.
var issueSorts = map[string]string{
	"latest":       "issues.created_at DESC, issues.id DESC",
	"oldest":       "issues.created_at ASC, issues.id ASC",
	"recentupdate": "issues.updated_at DESC, issues.created_at DESC, issues.id DESC",
	"leastupdate":  "issues.updated_at ASC, issues.created_at ASC, issues.id ASC",
	"mostcomment":  "issues.num_comments DESC, issues.created_at DESC, issues.id DESC",
	"leastcomment": "issues.num_comments ASC, issues.created_at DESC, issues.id DESC",
	// Issues without a deadline come last either way, as in Gitea.
	"nearduedate": "CASE WHEN issues.deadline IS NULL THEN 1 ELSE 0 END, issues.deadline ASC, issues.id DESC",
	"farduedate":  "CASE WHEN issues.deadline IS NULL THEN 1 ELSE 0 END, issues.deadline DESC, issues.id DESC",
}

// List returns one page of the issues q matches and their total: one query
// for the page, and for the total either nothing (a short page; a search
// for several words, whose page query counts its matches as it sorts them; or a
// listing filtered by state and kind only, whose total the repository's
// counters hold) or one count.
func (st *IssueStore) List(ctx context.Context, q ports.IssueQuery) ([]*issue.Issue, int64, error) {
	if plainIssueQuery(q) && q.PriorityRepoID == 0 && q.Limit > 0 {
		if d := st.c.owner; d != nil && d.dialect == DialectSQLite {
			if ps := st.c.sqliteReadStmt(ctx, d.plainListText(plainKey(q))); ps != nil {
				return st.listPrepared(ctx, ps, q)
			}
		}
	}
	db := st.c.r(ctx)
	var rows []issueRow
	var total int64
	ok := false
	if len(issue.SearchTerms(q.Keyword)) > 1 {
		// Several words make the full-text match the costly part (each
		// word's prefix is merged over the index), and the matches are all
		// read and sorted for the page anyway, so the page counts them too
		// rather than a count searching again. For one word the count is
		// cheaper than carrying every match through the window.
		var counted []issueCountedRow
		sel, none := issueFilters(db.NewSelect().Model(&counted).ColumnExpr("?TableColumns").
			ColumnExpr("count(*) OVER () AS total_count"), q)
		if none {
			return nil, 0, nil
		}
		if err := page(issueOrder(sel, q), q.ListOptions).Scan(ctx); err != nil {
			return nil, 0, issueMapping.mapErr(err)
		}
		rows = make([]issueRow, len(counted))
		for k := range counted {
			rows[k] = counted[k].issueRow
		}
		if len(counted) > 0 {
			total, ok = counted[0].Total, true
		}
	} else {
		sel, none := issueFilters(db.NewSelect().Model(&rows), q)
		if none {
			return nil, 0, nil
		}
		if err := page(issueOrder(sel, q), q.ListOptions).Scan(ctx); err != nil {
			return nil, 0, issueMapping.mapErr(err)
		}
	}
	if !ok {
		total, ok = totalFromPage(q.ListOptions, len(rows))
	}
	if !ok {
		var err error
		if total, ok, err = st.totalFromCounters(ctx, q); err != nil {
			return nil, 0, err
		}
	}
	if !ok {
		cnt, _ := issueFilters(db.NewSelect().Model((*issueRow)(nil)), q)
		n, err := cnt.Count(ctx)
		if err != nil {
			return nil, 0, issueMapping.mapErr(err)
		}
		total = int64(n)
	}
	return domainAll(rows, issueToDomain), total, nil
}

// issueCountedRow is an issue with the number of rows its query matched.
type issueCountedRow struct {
	issueRow `bun:",extend"`
	Total    int64 `bun:"total_count,scanonly"`
}

// plainKey is the shape of a plain listing (see plainIssueQuery).
func plainKey(q ports.IssueQuery) plainListKey {
	k := plainListKey{state: q.State, order: issueSorts["latest"]}
	if o, ok := issueSorts[q.Sort]; ok {
		k.order = o
	}
	if q.IsPull != nil {
		k.pull = 1
		if *q.IsPull {
			k.pull = 2
		}
	}
	return k
}

// listPrepared is List for a plain listing on SQLite, with the prepared
// page and counters statements; the page is scanned without bun's
// reflection (scanIssueRows).
func (st *IssueStore) listPrepared(ctx context.Context, ps *preparedStmt, q ports.IssueQuery) ([]*issue.Issue, int64, error) {
	rows, err := queryRows(ctx, ps, scanIssueRows, q.RepoIDs[0], q.Limit, q.Offset())
	if err != nil {
		return nil, 0, issueMapping.mapErr(err)
	}
	total, ok := totalFromPage(q.ListOptions, len(rows))
	if !ok {
		var err error
		if total, ok, err = st.totalFromCounters(ctx, q); err != nil {
			return nil, 0, err
		}
	}
	return domainAll(rows, issueToDomain), total, nil
}

// plainIssueQuery is whether q lists one repository filtered by nothing but
// state, kind and order.
func plainIssueQuery(q ports.IssueQuery) bool {
	return len(q.RepoIDs) == 1 && q.Viewer == nil && q.OwnerID == 0 && q.TeamID == 0 &&
		len(q.LabelIDs) == 0 && len(q.LabelNames) == 0 && len(q.MilestoneIDs) == 0 && !q.NoMilestone &&
		len(q.MilestoneNames) == 0 &&
		strings.TrimSpace(q.Keyword) == "" && q.Since.IsZero() && q.Before.IsZero() &&
		q.PosterID == 0 && q.AssigneeID == 0 && q.MentionedID == 0 && q.BaseBranch == ""
}

// totalFromCounters answers the total of a one-repository listing filtered
// by nothing but state and kind from the repository's counters, which every
// write keeps exact: counting would read every matching row, so the cost of
// the default listing would grow with the repository.
func (st *IssueStore) totalFromCounters(ctx context.Context, q ports.IssueQuery) (int64, bool, error) {
	if !plainIssueQuery(q) {
		return 0, false, nil
	}
	var c struct {
		NumIssues       int64 `bun:"num_issues"`
		NumClosedIssues int64 `bun:"num_closed_issues"`
		NumPulls        int64 `bun:"num_pulls"`
		NumClosedPulls  int64 `bun:"num_closed_pulls"`
	}
	var err error
	if ps := st.c.sqliteReadStmt(ctx, repoCountersSQL); ps != nil {
		err = ps.queryRow(ctx, q.RepoIDs[0]).Scan(&c.NumIssues, &c.NumClosedIssues, &c.NumPulls, &c.NumClosedPulls)
	} else {
		err = st.c.r(ctx).NewSelect().Table("repos").
			Column("num_issues", "num_closed_issues", "num_pulls", "num_closed_pulls").
			Where("id = ?", q.RepoIDs[0]).Scan(ctx, &c)
	}
	if err != nil {
		return 0, false, repoMapping.mapErr(err)
	}
	var total, closed int64
	if q.IsPull == nil || !*q.IsPull {
		total, closed = total+c.NumIssues, closed+c.NumClosedIssues
	}
	if q.IsPull == nil || *q.IsPull {
		total, closed = total+c.NumPulls, closed+c.NumClosedPulls
	}
	switch q.State {
	case "all":
		return total, true, nil
	case "closed":
		return closed, true, nil
	default:
		return total - closed, true, nil
	}
}

// issueOrder applies q's sort; a priority repository goes first.
func issueOrder(sel *bun.SelectQuery, q ports.IssueQuery) *bun.SelectQuery {
	order, ok := issueSorts[q.Sort]
	if !ok {
		order = issueSorts["latest"]
	}
	if q.PriorityRepoID != 0 && (q.Sort == "" || q.Sort == "priority" || q.Sort == "latest") {
		sel = sel.OrderExpr("CASE WHEN issues.repo_id = ? THEN 1 ELSE 2 END", q.PriorityRepoID)
	}
	return sel.OrderExpr(order)
}

// issueFilters applies every filter of q. none is true when q can match
// nothing (a keyword without words), so no query needs to run.
func issueFilters(sel *bun.SelectQuery, q ports.IssueQuery) (_ *bun.SelectQuery, none bool) {
	// A keyword matches few issues: SQLite must start from the full-text
	// index's matches and sort them, not walk the repository's listing
	// index in order probing each row (which it prefers for the LIMIT, and
	// which reads every row for the count). The unary plus keeps it from
	// using repo_id for an index; Postgres ignores it.
	repoCol := "issues.repo_id"
	if strings.TrimSpace(q.Keyword) != "" && sel.Dialect().Name() != dialect.PG {
		repoCol = "+issues.repo_id"
	}
	switch len(q.RepoIDs) {
	case 0:
	case 1:
		sel = sel.Where(repoCol+" = ?", q.RepoIDs[0])
	default:
		sel = sel.Where(repoCol+" IN (?)", bun.In(q.RepoIDs))
	}
	if q.Viewer != nil {
		sel = visibleIssues(sel, q)
	} else if q.OwnerID != 0 || q.TeamID != 0 {
		sub := sel.DB().NewSelect().TableExpr("repos AS repo").Column("repo.id")
		sel = sel.Where("issues.repo_id IN (?)", repoScope(sub, q))
	}
	switch q.State {
	case "all":
	case "closed":
		sel = sel.Where("issues.is_closed")
	default:
		sel = sel.Where("NOT issues.is_closed")
	}
	if q.IsPull != nil {
		sel = sel.Where("issues.is_pull = ?", *q.IsPull)
	}
	if q.BaseBranch != "" {
		sel = sel.Where("EXISTS (SELECT 1 FROM pull_requests AS bpr WHERE bpr.issue_id = issues.id AND bpr.base_branch = ?)", q.BaseBranch)
	}
	for _, id := range q.LabelIDs {
		sel = sel.Where("EXISTS (SELECT 1 FROM issue_labels AS il WHERE il.issue_id = issues.id AND il.label_id = ?)", id)
	}
	for _, name := range q.LabelNames {
		// A name no label of the issue's repository (or of its owning
		// organisation) has is discarded, as Gitea discards unknown names.
		sel = sel.Where(`(NOT EXISTS (SELECT 1 FROM labels AS l WHERE l.name = ?0 AND
				(l.repo_id = issues.repo_id OR l.org_id = (SELECT r.owner_id FROM repos AS r WHERE r.id = issues.repo_id)))
			OR EXISTS (SELECT 1 FROM issue_labels AS il JOIN labels AS l ON l.id = il.label_id
				WHERE il.issue_id = issues.id AND l.name = ?0))`, name)
	}
	if len(q.MilestoneIDs) > 0 {
		sel = sel.Where("issues.milestone_id IN (?)", bun.In(q.MilestoneIDs))
	}
	if len(q.MilestoneNames) > 0 {
		sel = sel.Where("issues.milestone_id IN (SELECT ms.id FROM milestones AS ms WHERE ms.repo_id = issues.repo_id AND ms.title IN (?))",
			bun.In(q.MilestoneNames))
	}
	if q.NoMilestone {
		sel = sel.Where("issues.milestone_id = 0")
	}
	if kw := strings.TrimSpace(q.Keyword); kw != "" {
		var ok bool
		if sel, ok = keywordIssues(sel, kw); !ok {
			return sel, true
		}
	}
	if !q.Since.IsZero() {
		sel = sel.Where("issues.updated_at >= ?", dbTime(q.Since))
	}
	if !q.Before.IsZero() {
		sel = sel.Where("issues.updated_at <= ?", dbTime(q.Before))
	}
	if q.PosterID != 0 {
		sel = sel.Where("issues.poster_id = ?", q.PosterID)
	}
	if q.AssigneeID != 0 {
		sel = sel.Where("EXISTS (SELECT 1 FROM issue_assignees AS ia WHERE ia.issue_id = issues.id AND ia.user_id = ?)", q.AssigneeID)
	}
	if q.MentionedID != 0 {
		// Mentioned in the issue's text or in one of its plain comments
		// (type 0), as Gitea records mentions from both.
		mention := "'@' || mu.lower_name"
		sel = sel.Where("EXISTS (SELECT 1 FROM users AS mu WHERE mu.id = ? AND ("+
			containsExpr(sel, "lower(issues.body)", mention)+
			" OR EXISTS (SELECT 1 FROM comments AS mc WHERE mc.issue_id = issues.id AND mc.type = 0 AND "+
			containsExpr(sel, "lower(mc.body)", mention)+")))", q.MentionedID)
	}
	return sel, false
}

// containsExpr is "haystack contains needle", both SQL expressions.
func containsExpr(sel *bun.SelectQuery, haystack, needle string) string {
	if sel.Dialect().Name() == dialect.PG {
		return "strpos(" + haystack + ", " + needle + ") > 0"
	}
	return "instr(" + haystack + ", " + needle + ") > 0"
}

// visibleIssues keeps the issues of repositories q.Viewer may read, in the
// query itself (the repository search's visibility rule, repoVisibleTo),
// and of those only the issues of repositories with the issue unit on and
// the pull requests of those with the pull request unit on.
func visibleIssues(sel *bun.SelectQuery, q ports.IssueQuery) *bun.SelectQuery {
	v := q.Viewer
	rv := ports.RepoViewer{UserID: v.UserID, IsAdmin: v.IsAdmin, Restricted: v.Restricted, PublicOnly: v.PublicOnly}
	scope := func(u permission.Unit) *bun.SelectQuery {
		sub := sel.DB().NewSelect().TableExpr("repos AS repo").Column("repo.id").
			Join("JOIN users AS u ON u.id = repo.owner_id").
			Where("(',' || repo.units || ',') LIKE ?", "%,"+u.Short()+",%")
		return repoScope(repoVisibleTo(sub, rv), q)
	}
	switch {
	case q.IsPull == nil:
		return sel.Where("((NOT issues.is_pull AND issues.repo_id IN (?)) OR (issues.is_pull AND issues.repo_id IN (?)))",
			scope(permission.UnitIssues), scope(permission.UnitPulls))
	case *q.IsPull:
		return sel.Where("issues.repo_id IN (?)", scope(permission.UnitPulls))
	default:
		return sel.Where("issues.repo_id IN (?)", scope(permission.UnitIssues))
	}
}

// repoScope narrows a repository subquery (alias repo) to q's owner and team.
func repoScope(sub *bun.SelectQuery, q ports.IssueQuery) *bun.SelectQuery {
	if q.OwnerID != 0 {
		sub = sub.Where("repo.owner_id = ?", q.OwnerID)
	}
	if q.TeamID != 0 {
		sub = sub.Where(teamRepos, q.TeamID, q.TeamID)
	}
	return sub
}

// keywordIssues keeps the issues whose title and body, or one of whose
// plain comments, hold every word of kw as a word prefix, through the
// full-text indexes of migration 000013; a keyword that is a number also
// matches the issue of that index. ok is false when kw has no word.
func keywordIssues(sel *bun.SelectQuery, kw string) (_ *bun.SelectQuery, ok bool) {
	terms := issue.SearchTerms(kw)
	if len(terms) == 0 {
		return sel, false
	}
	var match string
	var cond string
	if sel.Dialect().Name() == dialect.PG {
		parts := make([]string, len(terms))
		for i, t := range terms {
			parts[i] = t + ":*"
		}
		match = strings.Join(parts, " & ")
		cond = `issues.id IN (SELECT issues.id FROM issues WHERE ` + issueSearchDocPG + ` @@ to_tsquery('simple', ?0)
			UNION SELECT comments.issue_id FROM comments WHERE comments.type = 0 AND ` + commentSearchDocPG + ` @@ to_tsquery('simple', ?0))`
	} else {
		parts := make([]string, len(terms))
		for i, t := range terms {
			parts[i] = `"` + t + `"*`
		}
		match = strings.Join(parts, " AND ")
		cond = `issues.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ?0
			UNION SELECT c.issue_id FROM comments_fts JOIN comments AS c ON c.id = comments_fts.rowid WHERE comments_fts MATCH ?0)`
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(kw, "#"), 10, 64); err == nil && n > 0 {
		return sel.Where("("+cond+" OR issues.issue_index = ?1)", match, n), true
	}
	return sel.Where(cond, match), true
}
