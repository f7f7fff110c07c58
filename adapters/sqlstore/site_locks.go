package sqlstore

import (
	"context"
	"database/sql/driver"
	"hash/fnv"
	"sync"

	"github.com/depothq/depot/ports"
)

// SiteLocks implements ports.SiteLocks. Each name has a lock in this
// process, taken first, so that a server waits for one of its own
// requests without holding a connection for each waiter (waiters holding
// the pool would starve the holder's own transaction); on Postgres the
// holder then takes a session advisory lock on a connection of its own,
// which orders it against the other servers and dies with the session if
// the server does.
type SiteLocks struct {
	d     *DB
	mu    sync.Mutex
	local map[string]chan struct{}
}

var _ ports.SiteLocks = (*SiteLocks)(nil)

// SiteLocks returns the database's site locks (one set per handle: its
// in-process half must be shared by every holder in the server).
func (d *DB) SiteLocks() *SiteLocks {
	d.siteLocksOnce.Do(func() { d.siteLocks = &SiteLocks{d: d, local: map[string]chan struct{}{}} })
	return d.siteLocks
}

// Lock takes the lock called name.
func (l *SiteLocks) Lock(ctx context.Context, name string) (func(), error) {
	l.mu.Lock()
	sem, ok := l.local[name]
	if !ok {
		sem = make(chan struct{}, 1)
		l.local[name] = sem
	}
	l.mu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-sem }
	if l.d.dialect != DialectPostgres {
		return release, nil
	}
	c, err := l.d.write.Conn(ctx)
	if err != nil {
		release()
		return nil, err
	}
	key := siteLockKey(name)
	if _, err := c.ExecContext(ctx, "SELECT pg_advisory_lock(?)", key); err != nil {
		_ = c.Close()
		release()
		return nil, err
	}
	return func() {
		if _, err := c.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", key); err != nil {
			// The session may still hold the lock: it must not go back to
			// the pool, so the connection is discarded (which ends it).
			_ = c.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = c.Close()
		release()
	}, nil
}

// siteLockKey is name's advisory lock key: FNV-1a of "depot:" and name,
// apart from the migration lock's.
func siteLockKey(name string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("depot:" + name))
	return int64(h.Sum64())
}
