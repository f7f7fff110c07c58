package sqlstore

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/ports"
)

// ExpireLeases ends at now the leases of the running jobs whose owner
// starts with prefix but not with keep. The prefixes are compared with
// substr rather than LIKE, so that an owner name needs no escaping; both
// backends count substr's positions in characters.
func (s *JobStore) ExpireLeases(ctx context.Context, prefix, keep string, now time.Time) (int64, error) {
	if prefix == "" {
		// An empty prefix would take every process's leases.
		return 0, nil
	}
	now = dbTime(now)
	q := s.c.w(ctx).NewUpdate().Model((*jobRow)(nil)).
		Set("lease_until = ?", now).
		Where("state = ?", string(ports.JobRunning)).
		Where("lease_until > ?", now).
		Where("substr(lease_owner, 1, ?) = ?", utf8.RuneCountInString(prefix), prefix)
	if keep != "" {
		q = q.Where("substr(lease_owner, 1, ?) <> ?", utf8.RuneCountInString(keep), keep)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return 0, jobMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, jobMapping.mapErr(err)
	}
	return n, nil
}
