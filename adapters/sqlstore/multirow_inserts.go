package sqlstore

import (
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"
)

// insertRows inserts rows (a table's query models, ids left zero) with
// multi-row INSERTs of at most insertChunk rows and returns their new ids in
// rows' order. Both databases number a statement's rows in VALUES order,
// but neither promises the order RETURNING gives them back in, so the ids
// are sorted rather than read positionally.
func insertRows[R any](ctx context.Context, db bun.IDB, rows []R) ([]int64, error) {
	ids := make([]int64, 0, len(rows))
	for start := 0; start < len(rows); start += insertChunk {
		chunk := rows[start:min(start+insertChunk, len(rows))]
		var got []int64
		if err := db.NewInsert().Model(&chunk).ExcludeColumn("id").Returning("id").Scan(ctx, &got); err != nil {
			return nil, err
		}
		if len(got) != len(chunk) {
			return nil, fmt.Errorf("insert returned %d ids for %d rows", len(got), len(chunk))
		}
		slices.Sort(got)
		ids = append(ids, got...)
	}
	return ids, nil
}
