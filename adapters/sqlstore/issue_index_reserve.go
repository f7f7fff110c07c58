package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// reserveIndexesSQL raises a repository's index counter to at least the
// given value (creating the row for a repository without issues); the
// CASE keeps one statement for both dialects, which name the larger of two
// values differently.
const reserveIndexesSQL = `INSERT INTO issue_indexes (repo_id, max_index) VALUES (?, ?)
	ON CONFLICT (repo_id) DO UPDATE SET max_index = CASE
		WHEN issue_indexes.max_index < excluded.max_index THEN excluded.max_index
		ELSE issue_indexes.max_index END`

// ReserveIndexes makes the repository's next index at least upTo+1.
func (st *IssueStore) ReserveIndexes(ctx context.Context, repoID, upTo int64) error {
	if upTo <= 0 {
		return nil
	}
	return st.c.inTx(ctx, func(ctx context.Context, tx bun.IDB) error {
		_, err := tx.ExecContext(ctx, reserveIndexesSQL, repoID, upTo)
		return issueMapping.mapErr(err)
	})
}
