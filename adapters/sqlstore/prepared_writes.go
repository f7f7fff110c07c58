package sqlstore

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// The hot write paths on SQLite (an issue's creation and the hook lookup of
// its event) run as statements prepared on the writer before BEGIN
// (txStatementTexts in statements.go). bun inlines arguments into the SQL
// text, so SQLite parsed and planned each statement anew, and the issue's
// INSERT compiled its search index triggers every time: about a third of a
// creation's cost.

// The statements of an issue's creation on SQLite, in the order it runs them.
const (
	insertIssueSQL = `INSERT INTO issues (repo_id, issue_index, poster_id, original_author, original_author_id,
	title, body, ref, is_pull, is_closed, is_locked, pin_order, milestone_id, deadline, num_comments,
	created_at, updated_at, closed_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	countIssueSQL = `UPDATE repos SET num_issues = num_issues + ?, num_closed_issues = num_closed_issues + ? WHERE id = ?`
	countPullSQL  = `UPDATE repos SET num_pulls = num_pulls + ?, num_closed_pulls = num_closed_pulls + ? WHERE id = ?`
)

// createPrepared is Create's body through the writer's prepared statements:
// ok false when they are not available on tx (see conn.writerStmt).
func (st *IssueStore) createPrepared(ctx context.Context, tx bun.IDB, row *issueRow) (ok bool, err error) {
	next, ok := st.c.writerStmt(ctx, tx, nextIndexSQL)
	if !ok {
		return false, nil
	}
	defer next.done()
	ins, ok := st.c.writerStmt(ctx, tx, insertIssueSQL)
	if !ok {
		return false, nil
	}
	defer ins.done()
	counters := countIssueSQL
	if row.IsPull {
		counters = countPullSQL
	}
	cnt, ok := st.c.writerStmt(ctx, tx, counters)
	if !ok {
		return false, nil
	}
	defer cnt.done()

	if err := next.queryRow(ctx, row.RepoID).Scan(&row.Index); err != nil {
		return true, issueMapping.mapErr(err)
	}
	err = ins.queryRow(ctx, row.RepoID, row.Index, row.PosterID, row.OrigAuthor, row.OrigAuthID,
		row.Title, row.Body, row.Ref,
		row.IsPull, row.IsClosed, row.IsLocked, row.PinOrder, row.MilestoneID, ins.timePtrArg(row.Deadline),
		row.NumComments, ins.timeArg(row.CreatedAt), ins.timeArg(row.UpdatedAt), ins.timePtrArg(row.ClosedAt)).
		Scan(&row.ID)
	if err != nil {
		return true, issueMapping.mapErr(err)
	}
	_, err = cnt.exec(ctx, 1, boolInt(row.IsClosed), row.RepoID)
	return true, issueMapping.mapErr(err)
}

// activeHooksSQL is ActiveFor's statement: a UNION of three index ranges,
// so neither side of an OR makes the planner scan the table.
const activeHooksSQL = `SELECT * FROM (
		SELECT * FROM webhooks WHERE repo_id = ? AND active
		UNION ALL
		SELECT * FROM webhooks WHERE owner_id = ? AND active
		UNION ALL
		SELECT * FROM webhooks WHERE repo_id IS NULL AND owner_id IS NULL AND is_system AND active
	) AS wh ORDER BY id`

// activeForPrepared runs ActiveFor's statement prepared on the writer when
// the call runs in one of its transactions (an event emitted by a change):
// ok false elsewhere.
func (s *HookStore) activeForPrepared(ctx context.Context, repoID, ownerID int64) (rows []hookRow, ok bool, err error) {
	on := s.c.r(ctx)
	if _, inTx := on.(bun.Tx); !inTx {
		return nil, false, nil
	}
	st, ok := s.c.writerStmt(ctx, on, activeHooksSQL)
	if !ok {
		return nil, false, nil
	}
	defer st.done()
	err = st.query(ctx, func(res *sql.Rows) error { return st.db.write.ScanRows(ctx, res, &rows) }, repoID, ownerID)
	if err != nil {
		return nil, true, err
	}
	return rows, true, nil
}
