package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/ports"
)

// AnyDue implements ports.JobStore. Each half is a short range of
// idx_jobs_state_run_at: the oldest pending job's run_at, and the running
// jobs (as many as the workers hold) for an ended lease. It reads on the
// read pool, beside the writer.
func (s *JobStore) AnyDue(ctx context.Context, now time.Time) (bool, error) {
	now = dbTime(now)
	var due bool
	err := s.c.r(ctx).NewRaw(`SELECT EXISTS (SELECT 1 FROM jobs WHERE state = ? AND run_at <= ?)
		OR EXISTS (SELECT 1 FROM jobs WHERE state = ? AND lease_until <= ?)`,
		string(ports.JobPending), now, string(ports.JobRunning), now).Scan(ctx, &due)
	if err != nil {
		return false, jobMapping.mapErr(err)
	}
	return due, nil
}
