package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/depothq/depot/ports"
)

// AnyDue implements ports.JobStore. Each half is a short range of
// idx_jobs_state_run_at: the oldest pending job's run_at, and the running
// jobs (as many as the workers hold) for an ended lease; the first row
// found ends the statement. It reads on the read pool, beside the writer.
func (s *JobStore) AnyDue(ctx context.Context, now time.Time) (bool, error) {
	now = dbTime(now)
	var one int
	err := s.c.r(ctx).NewRaw(`SELECT 1 FROM jobs WHERE state = ? AND run_at <= ?
		UNION ALL SELECT 1 FROM jobs WHERE state = ? AND lease_until <= ? LIMIT 1`,
		string(ports.JobPending), now, string(ports.JobRunning), now).Scan(ctx, &one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, jobMapping.mapErr(err)
	}
	return true, nil
}
