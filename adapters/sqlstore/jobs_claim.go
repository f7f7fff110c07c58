package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"time"
)

// claimStmts keeps SQLite's claim as prepared statements on the writer, one
// per number of kinds claimed. bun inlines arguments into the SQL text, so
// each claim was parsed and planned anew: three quarters of a claim's cost,
// paid by every worker that finishes a job (it claims the next) and for
// every kind at each poll. Preparing fails until the table exists (before
// Migrate), so a failure is retried on the next claim rather than kept.
type claimStmts struct {
	mu      sync.Mutex
	byKinds map[int]*sql.Stmt
}

// claimStmt returns the prepared claim of n kinds when the claim runs on
// SQLite outside any transaction; nil otherwise (the ordinary query path).
func (c conn) claimStmt(ctx context.Context, n int) *sql.Stmt {
	d := c.owner
	if d == nil || d.dialect != DialectSQLite {
		return nil
	}
	if _, ok := d.txFrom(ctx); ok {
		return nil
	}
	d.claims.mu.Lock()
	defer d.claims.mu.Unlock()
	if st, ok := d.claims.byKinds[n]; ok {
		return st
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
	text := strings.ReplaceAll(claimHints.Replace(claimSQL), "IN (?)", "IN ("+marks+")")
	st, err := d.write.DB.PrepareContext(ctx, text)
	if err != nil {
		return nil
	}
	if d.claims.byKinds == nil {
		d.claims.byKinds = map[int]*sql.Stmt{}
	}
	d.claims.byKinds[n] = st
	return st
}

// claimPrepared runs the prepared claim. Times are passed as the text bun
// writes them (its dialect's format), so that they compare with the stored
// ones as bun's own queries do.
func (s *JobStore) claimPrepared(ctx context.Context, st *sql.Stmt, owner string, kinds []string, now time.Time,
	lease time.Duration, limit, follow int) ([]jobRow, error) {
	db := s.c.owner.write
	at := func(t time.Time) string {
		return strings.Trim(string(db.Dialect().AppendTime(nil, t)), "'")
	}
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
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	var out []jobRow
	if err := db.ScanRows(ctx, rows, &out); err != nil {
		return nil, err
	}
	return out, nil
}
