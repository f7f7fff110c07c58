package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

// TasksKnown returns those of ids an Actions task row has.
func (s *SiteInventory) TasksKnown(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var found []int64
	if err := s.d.read.NewSelect().Model((*actionTaskRow)(nil)).Column("id").Where("id IN (?)", bun.In(ids)).
		Scan(ctx, &found); err != nil {
		return nil, err
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// ArchivedTaskLogs calls fn with the tasks whose log was moved to its
// file, with their job and repository, n at a time.
func (s *SiteInventory) ArchivedTaskLogs(ctx context.Context, n int, fn func(tasks []ports.TaskLogRef) error) error {
	return pagesByID(ctx, n, func(ctx context.Context, after int64, n int) ([]ports.TaskLogRef, error) {
		rows, err := s.d.read.NewSelect().TableExpr("action_tasks AS at").
			ColumnExpr("at.id, at.job_id, COALESCE(aj.name, ''), COALESCE(u.name || '/' || r.name, '')").
			Join("LEFT JOIN action_run_jobs AS aj ON aj.id = at.job_id").
			Join("LEFT JOIN repos AS r ON r.id = at.repo_id").Join("LEFT JOIN users AS u ON u.id = r.owner_id").
			Where("at.log_archived = ?", true).Where("at.id > ?", after).OrderExpr("at.id ASC").Limit(int64(n)).Rows(ctx)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []ports.TaskLogRef
		for rows.Next() {
			var ref ports.TaskLogRef
			if err := rows.Scan(&ref.TaskID, &ref.JobID, &ref.Job, &ref.Repo); err != nil {
				return nil, err
			}
			out = append(out, ref)
		}
		return out, rows.Err()
	}, func(t ports.TaskLogRef) int64 { return t.TaskID }, fn)
}
