package jobs_test

import (
	"context"
	"strings"
	"time"

	"github.com/depothq/depot/ports"
)

func (m *memJobs) ExpireLeases(_ context.Context, prefix, keep string, now time.Time) (int64, error) {
	if prefix == "" {
		return 0, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var n int64
	for _, j := range m.jobs {
		if j.state != ports.JobRunning || !j.leaseUntil.After(now) || !strings.HasPrefix(j.owner, prefix) ||
			(keep != "" && strings.HasPrefix(j.owner, keep)) {
			continue
		}
		j.leaseUntil = now
		n++
	}
	return n, nil
}
