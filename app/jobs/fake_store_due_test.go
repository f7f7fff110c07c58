package jobs_test

import (
	"context"
	"time"
)

func (m *memJobs) AnyDue(_ context.Context, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if claimable(j, []string{j.job.Kind}, now) {
			return true, nil
		}
	}
	return false, nil
}
