package sqlstore

import (
	"context"
	"strconv"

	"github.com/uptrace/bun"
)

// sqliteReadStmt returns one of the hot reads (the issue tracker's default
// listing, its total and the records of a page; the assets and publishers
// of a release page; accounts by id) prepared on SQLite's read pool
// (statements.go); nil on Postgres, inside a transaction,
// or when it cannot be prepared, and the caller takes the ordinary query
// path. bun inlines arguments into the SQL text, so SQLite parsed and
// planned each of these statements on every request: a quarter of a
// listing's cost. Their texts take lists of ids as one JSON array
// (json_each), so one statement serves pages of any length.
func (c conn) sqliteReadStmt(ctx context.Context, text string) *preparedStmt {
	if c.owner == nil || c.owner.dialect != DialectSQLite {
		return nil
	}
	return c.readStmt(ctx, text)
}

// idsJSON is ids as a JSON array, the one argument json_each reads.
func idsJSON(ids []int64) string {
	b := make([]byte, 0, 2+len(ids)*8)
	b = append(b, '[')
	for k, id := range ids {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}

// plainListKey is the shape of a default listing: everything but the
// repository and the page, which are the statement's parameters.
type plainListKey struct {
	state string
	pull  int8 // 0 both, 1 issues, 2 pulls
	order string
}

// plainListText is the default listing's statement for k: the repository
// id, the limit and the offset are its parameters, and its columns are
// issueListColumns (read by scanIssueRows).
func (d *DB) plainListText(k plainListKey) string {
	if t, ok := d.stmts.texts.Load(k); ok {
		return t.(string)
	}
	sel := d.read.NewSelect().TableExpr("issues AS issues").ColumnExpr(issueListSelect).
		Where("issues.repo_id = ?", bun.Safe("?"))
	// The state is an equality so that SQLite reads the listing index
	// (repo_id, is_closed, created_at, id) in order: with "NOT is_closed" it
	// walks every issue of the repository by creation time and skips the
	// closed ones, which costs more the more of them are closed.
	switch k.state {
	case "all":
	case "closed":
		sel = sel.Where("issues.is_closed = ?", true)
	default:
		sel = sel.Where("issues.is_closed = ?", false)
	}
	if k.pull != 0 {
		sel = sel.Where("issues.is_pull = ?", k.pull == 2)
	}
	text := sel.OrderExpr(k.order).String() + " LIMIT ? OFFSET ?"
	d.stmts.texts.Store(k, text)
	return text
}

// repoCountersSQL reads the issue and pull counters of a repository.
const repoCountersSQL = `SELECT num_issues, num_closed_issues, num_pulls, num_closed_pulls FROM repos WHERE id = ?`

// labelOfIssueRow is a label with the issue it is on.
type labelOfIssueRow struct {
	labelRow `bun:",extend"`
	IssueID  int64 `bun:"issue_id,scanonly"`
}

// pageTexts are the page records' statements on SQLite, each over the
// page's ids as one JSON array; bun writes their column lists from the
// models, as its own queries do.
type pageTexts struct {
	labels, assignees, attachments, milestones, users string
}

// pageTexts returns the page records' statements, generated once per DB
// (and per call inside a transaction, which has no DB to keep them on).
func (c conn) pageTexts(ctx context.Context) *pageTexts {
	d := c.owner
	if d == nil {
		return pageTextsOn(c.r(ctx))
	}
	const key = "page-records"
	if t, ok := d.stmts.texts.Load(key); ok {
		return t.(*pageTexts)
	}
	t := pageTextsOn(d.read)
	d.stmts.texts.Store(key, t)
	return t
}

func pageTextsOn(db bun.IDB) *pageTexts {
	ids := bun.Safe("(SELECT value FROM json_each(?))")
	return &pageTexts{
		labels: db.NewSelect().Model((*labelOfIssueRow)(nil)).ColumnExpr("l.*").ColumnExpr("il.issue_id").
			Join("JOIN issue_labels AS il ON il.label_id = l.id").Where("il.issue_id IN ?", ids).
			Order("l.name ASC", "l.id ASC").String(),
		assignees: db.NewSelect().Model((*issueAssigneeRow)(nil)).Where("ia.issue_id IN ?", ids).
			Order("ia.issue_id", "ia.user_id").String(),
		attachments: db.NewSelect().Model((*attachmentRow)(nil)).Where("at.issue_id IN ?", ids).
			Where("at.comment_id = 0").Order("at.id ASC").String(),
		milestones: db.NewSelect().Model((*milestoneRow)(nil)).Where("m.id IN ?", ids).Order("m.id ASC").String(),
		users:      userSelectSQLite + " WHERE u.id IN (SELECT value FROM json_each(?))", // scanUserRows
	}
}
