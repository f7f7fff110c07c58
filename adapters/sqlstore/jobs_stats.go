package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var _ ports.JobQueueStats = (*DB)(nil)

// JobQueueStats counts the unfinished and failed jobs by kind and state,
// with when the oldest of each was queued (ports.JobQueueStats): one
// grouped count, and one lookup of the oldest rows by id.
func (d *DB) JobQueueStats(ctx context.Context) ([]ports.JobQueueStat, error) {
	var groups []struct {
		Kind   string `bun:"kind"`
		State  string `bun:"state"`
		N      int64  `bun:"n"`
		Oldest int64  `bun:"oldest"`
	}
	err := d.read.NewSelect().Model((*jobRow)(nil)).
		ColumnExpr("j.kind, j.state, COUNT(*) AS n, MIN(j.id) AS oldest").
		GroupExpr("j.kind, j.state").OrderExpr("j.kind, j.state").Scan(ctx, &groups)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: job queue stats: %w", err)
	}
	if len(groups) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(groups))
	for i, g := range groups {
		ids[i] = g.Oldest
	}
	var rows []jobRow
	if err := d.read.NewSelect().Model(&rows).Column("id", "created").Where("j.id IN (?)", bun.In(ids)).
		Scan(ctx); err != nil {
		return nil, fmt.Errorf("sqlstore: job queue stats: %w", err)
	}
	created := make(map[int64]jobRow, len(rows))
	for _, r := range rows {
		created[r.ID] = r
	}
	out := make([]ports.JobQueueStat, len(groups))
	for i, g := range groups {
		out[i] = ports.JobQueueStat{Kind: g.Kind, State: g.State, Count: g.N, Oldest: domainTime(created[g.Oldest].Created)}
	}
	return out, nil
}
