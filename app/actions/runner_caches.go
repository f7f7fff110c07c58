package actions

import (
	"context"
	"sync"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
)

// tasksVersionTTL is how long a read of the tasks version answers idle
// polls. Within it an idle runner's FetchTask sends no statement; a job
// that starts waiting through another server is seen at most this late
// (this server forgets the version as soon as it queues one itself).
const tasksVersionTTL = time.Second

// runnerCacheMax bounds the runners kept between polls.
const runnerCacheMax = 4096

// runnerCache keeps the runners that polled lately by uuid for
// runnerCacheTTL after they were read, so that an idle runner's
// polls cost no lookup. Deleting or declaring on this server updates it
// at once; another server's deletion shows within its lifetime, and the
// claim of a job checks the runner again.
type runnerCache struct {
	mu sync.Mutex
	m  map[string]cachedRunner
}

type cachedRunner struct {
	r     actions.Runner
	until time.Time
}

// get returns a copy of the runner uuid read less than its lifetime ago.
func (c *runnerCache) get(uuid string, now time.Time) (*actions.Runner, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[uuid]
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	r := e.r
	return &r, true
}

// put keeps a copy of r until until, or, when it is kept already, updates
// it and keeps its lifetime.
func (c *runnerCache) put(r *actions.Runner, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedRunner{}
	}
	if e, ok := c.m[r.UUID]; ok {
		until = e.until
	} else if len(c.m) >= runnerCacheMax {
		for k, e := range c.m {
			if !until.After(e.until) || len(c.m) >= runnerCacheMax {
				delete(c.m, k)
			}
		}
	}
	c.m[r.UUID] = cachedRunner{r: *r, until: until}
}

// forget drops the runner id.
func (c *runnerCache) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		if e.r.ID == id {
			delete(c.m, k)
		}
	}
}

// versionCache keeps the tasks version read last for tasksVersionTTL.
type versionCache struct {
	mu    sync.Mutex
	v     int64
	until time.Time
}

// tasksVersion is the tasks version, read again once the one kept is
// older than tasksVersionTTL.
func (s *Service) tasksVersion(ctx context.Context, now time.Time) (int64, error) {
	c := s.versions
	c.mu.Lock()
	if now.Before(c.until) {
		v := c.v
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	v, err := s.stores.ActionTasks.TasksVersion(ctx)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.v, c.until = v, now.Add(tasksVersionTTL)
	c.mu.Unlock()
	return v, nil
}

// tasksChanged forgets the kept tasks version: a job may have started
// waiting.
func (s *Service) tasksChanged() {
	s.versions.mu.Lock()
	s.versions.until = time.Time{}
	s.versions.mu.Unlock()
}

// inTxTasksChanged runs fn in a transaction and, once it committed,
// forgets the kept tasks version.
func (s *Service) inTxTasksChanged(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	err := s.tx.InTx(ctx, fn)
	if err == nil {
		s.tasksChanged()
	}
	return err
}
