package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// claimKinds keys the text of SQLite's claim of so many kinds, prepared on
// the writer (statements.go): one statement per number of kinds claimed. bun inlines arguments into the SQL text, so each claim was parsed
// and planned anew: three quarters of a claim's cost, paid by every worker
// that finishes a job (it claims the next) and for every kind at each poll.
type claimKinds int

// claimStmt returns the prepared claim of n kinds when the claim runs on
// SQLite outside any transaction (on the writer itself, where writerStmt
// prepares it on first use); ok false otherwise (the ordinary query path).
func (c conn) claimStmt(ctx context.Context, n int) (writerStmt, bool) {
	if c.owner == nil {
		return writerStmt{}, false
	}
	text := c.owner.stmts.text(claimKinds(n), func() string {
		marks := strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
		return strings.ReplaceAll(claimHints.Replace(claimSQL), "IN (?)", "IN ("+marks+")")
	})
	return c.writerStmt(ctx, c.owner.write, text)
}

// claimPrepared runs the prepared claim. Times are passed as the text bun
// writes them (its dialect's format), so that they compare with the stored
// ones as bun's own queries do.
func (s *JobStore) claimPrepared(ctx context.Context, st writerStmt, owner string, kinds []string, now time.Time,
	lease time.Duration, limit, follow int) ([]jobRow, error) {
	at := st.timeArg
	in := make([]any, len(kinds))
	for i, k := range kinds {
		in[i] = k
	}
	var args []any
	args = append(append(args, in...), at(now), limit)
	args = append(append(args, in...), at(now))
	args = append(append(args, in...), at(now), at(now), limit)
	args = append(append(args, in...), at(now), at(now), follow, owner, at(now.Add(lease)))
	args = append(append(args, in...), at(now), at(now))
	var out []jobRow
	err := st.query(ctx, func(rows *sql.Rows) error { return st.db.write.ScanRows(ctx, rows, &out) }, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}
