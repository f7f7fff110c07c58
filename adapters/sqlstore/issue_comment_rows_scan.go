package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// commentColumns are every column of commentRow, in the order
// scanCommentRows reads them; the times are read as text (see
// issueListColumns).
var commentColumns = []string{
	"c.id", "c.type", "c.issue_id", "c.repo_id", "c.poster_id", "c.original_author", "c.original_author_id",
	"c.body", "c.label_id", "c.old_milestone_id", "c.milestone_id", "c.assignee_id", "c.removed_assignee",
	"c.old_title", "c.new_title", "c.old_ref", "c.new_ref", "c.ref_repo_id", "c.ref_issue_id",
	"c.ref_comment_id", "c.dependent_issue_id", "c.time_id", "c.content", "c.review_id",
	"c.assignee_team_id", "c.tree_path", "c.line", "c.commit_sha", "c.patch", "c.invalidated",
	"c.resolve_doer_id", "CAST(c.created_at AS TEXT)", "CAST(c.updated_at AS TEXT)",
}

var commentSelect = strings.Join(commentColumns, ", ")

// commentTextColumns are the columns of a CommentQuery.TextOnly listing, in
// the order scanCommentTextRows reads them: reading a column from SQLite
// costs about as much as a row's step, so a page of plain comments reads a
// third of commentColumns.
var commentTextColumns = []string{
	"c.id", "c.type", "c.issue_id", "c.repo_id", "c.poster_id", "c.original_author", "c.original_author_id",
	"c.body", "CAST(c.created_at AS TEXT)", "CAST(c.updated_at AS TEXT)",
}

var commentTextSelect = strings.Join(commentTextColumns, ", ")

// scanCommentRows reads the rows of a statement selecting commentColumns
// with database/sql's Scan straight into the row's fields (bun's reflection
// looked every column of every row up by name), and closes them.
func scanCommentRows(rows *sql.Rows) ([]commentRow, error) {
	return scanCommentsInto(rows, func(r *commentRow, dest []any) []any {
		return append(dest, &r.ID, &r.Type, &r.IssueID, &r.RepoID, &r.PosterID, &r.OrigAuthor, &r.OrigAuthID,
			&r.Body, &r.LabelID, &r.OldMilestoneID, &r.MilestoneID, &r.AssigneeID, &r.RemovedAssignee,
			&r.OldTitle, &r.NewTitle, &r.OldRef, &r.NewRef, &r.RefRepoID, &r.RefIssueID,
			&r.RefCommentID, &r.DependentIssueID, &r.TimeID, &r.Content, &r.ReviewID,
			&r.AssigneeTeamID, &r.TreePath, &r.Line, &r.CommitSHA, &r.Patch, &r.Invalidated,
			&r.ResolveDoerID)
	})
}

// scanCommentTextRows reads the rows of a statement selecting
// commentTextColumns, as scanCommentRows does, and closes them.
func scanCommentTextRows(rows *sql.Rows) ([]commentRow, error) {
	return scanCommentsInto(rows, func(r *commentRow, dest []any) []any {
		return append(dest, &r.ID, &r.Type, &r.IssueID, &r.RepoID, &r.PosterID, &r.OrigAuthor, &r.OrigAuthID, &r.Body)
	})
}

// scanCommentsInto reads rows whose columns are fields' then created_at
// and updated_at (as text), and closes them; fields appends a row's
// destinations to dest, a slice reused from row to row.
func scanCommentsInto(rows *sql.Rows, fields func(r *commentRow, dest []any) []any) (_ []commentRow, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	out := make([]commentRow, 0, 16)
	var created, updated sql.RawBytes
	dest := make([]any, 0, 34)
	for rows.Next() {
		out = append(out, commentRow{})
		r := &out[len(out)-1]
		dest = append(fields(r, dest[:0]), &created, &updated)
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if r.CreatedAt, err = parseDBTime(created); err != nil {
			return nil, err
		}
		if r.UpdatedAt, err = parseDBTime(updated); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// commentListKey is the shape of a comment listing unbounded in time: its
// filters' presence, whose values are the statement's parameters.
type commentListKey struct {
	issue, repo bool
	types       int  // how many types are kept (0: every type)
	pull        int8 // 0 both, 1 issues, 2 pulls
	textOnly    bool // commentTextColumns rather than commentColumns
}

func commentListKeyOf(q ports.CommentQuery) commentListKey {
	k := commentListKey{issue: q.IssueID != 0, repo: q.RepoID != 0, types: min(len(q.Types), 2), textOnly: q.TextOnly}
	if q.IsPull != nil {
		k.pull = 1
		if *q.IsPull {
			k.pull = 2
		}
	}
	return k
}

// commentListCountKey is the shape of the count of a commentListKey.
type commentListCountKey struct{ commentListKey }

// commentFilters adds k's conditions to sel, each value a placeholder, in
// the order commentListArgs gives their values. Several types are one
// JSON array.
func commentFilters(sel *bun.SelectQuery, k commentListKey) *bun.SelectQuery {
	ph := bun.Safe("?")
	if k.issue {
		sel = sel.Where("c.issue_id = ?", ph)
	}
	if k.repo {
		sel = sel.Where("c.repo_id = ?", ph)
	}
	switch k.types {
	case 0:
	case 1:
		sel = sel.Where("c.type = ?", ph)
	default:
		sel = sel.Where("c.type IN ?", bun.Safe("(SELECT value FROM json_each(?))"))
	}
	if k.pull != 0 {
		sel = sel.Where("c.issue_id IN (SELECT i.id FROM issues AS i WHERE i.repo_id = c.repo_id AND i.is_pull = ?)",
			k.pull == 2)
	}
	return sel
}

// commentListArgs are the values of commentFilters' placeholders for q.
func commentListArgs(q ports.CommentQuery, k commentListKey) []any {
	args := make([]any, 0, 5)
	if k.issue {
		args = append(args, q.IssueID)
	}
	if k.repo {
		args = append(args, q.RepoID)
	}
	switch k.types {
	case 0:
	case 1:
		args = append(args, int(q.Types[0]))
	default:
		b := make([]byte, 0, 2+len(q.Types)*3)
		b = append(b, '[')
		for i, t := range q.Types {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(t), 10)
		}
		args = append(args, string(append(b, ']')))
	}
	return args
}

// commentListText is the page statement of k on SQLite: its filters'
// values, the limit and the offset are its parameters.
func (d *DB) commentListText(k commentListKey) string {
	return d.stmts.text(k, func() string {
		cols := commentSelect
		if k.textOnly {
			cols = commentTextSelect
		}
		sel := commentFilters(d.read.NewSelect().TableExpr("comments AS c").ColumnExpr(cols), k)
		return sel.OrderExpr("c.created_at ASC, c.id ASC").String() + " LIMIT ? OFFSET ?"
	})
}

// commentCountText is the count statement of k on SQLite.
func (d *DB) commentCountText(k commentListKey) string {
	k.textOnly = false // the columns read do not change the count
	return d.stmts.text(commentListCountKey{k}, func() string {
		return commentFilters(d.read.NewSelect().TableExpr("comments AS c").ColumnExpr("count(*)"), k).String()
	})
}

// listPrepared is List through the prepared page statement ps of shape k,
// counting through its prepared count only when the page is full.
func (st *CommentStore) listPrepared(ctx context.Context, d *DB, k commentListKey, ps *preparedStmt,
	q ports.CommentQuery) ([]*issue.Comment, int64, error) {
	args := commentListArgs(q, k)
	scan := scanCommentRows
	if k.textOnly {
		scan = scanCommentTextRows
	}
	rows, err := queryRows(ctx, ps, scan, append(args, q.Limit, q.Offset())...)
	if err != nil {
		return nil, 0, commentMapping.mapErr(err)
	}
	total, ok := totalFromPage(q.ListOptions, len(rows))
	if !ok {
		text := d.commentCountText(k)
		var err error
		if cs := st.c.sqliteReadStmt(ctx, text); cs != nil {
			err = cs.queryRow(ctx, args...).Scan(&total)
		} else {
			err = st.c.r(ctx).QueryRowContext(ctx, text, args...).Scan(&total) // bun fills the placeholders
		}
		if err != nil {
			return nil, 0, commentMapping.mapErr(err)
		}
	}
	return domainAll(rows, (*commentRow).toDomain), total, nil
}
