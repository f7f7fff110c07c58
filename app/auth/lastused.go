package auth

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/depothq/depot/ports"
)

// LastUsedRecorder collects token use in memory and writes it back in one
// batch a minute, so that reading with a token never writes on the request
// path. A token is recorded at most once a minute.
type LastUsedRecorder struct {
	mu      sync.Mutex
	clock   ports.Clock
	store   ports.AccessTokenStore
	log     *slog.Logger
	pending map[int64]time.Time
	written map[int64]time.Time
}

// NewLastUsedRecorder returns a recorder writing to store.
func NewLastUsedRecorder(clock ports.Clock, stores ports.Stores, log *slog.Logger) *LastUsedRecorder {
	return &LastUsedRecorder{clock: clock, store: stores.Tokens, log: log,
		pending: make(map[int64]time.Time), written: make(map[int64]time.Time)}
}

// Record notes that token id was used now.
func (r *LastUsedRecorder) Record(id int64) {
	now := r.clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.written[id]; ok && now.Sub(w) < FlushInterval {
		return
	}
	r.pending[id] = now
	r.written[id] = now
}

// Flush writes pending times now.
func (r *LastUsedRecorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	batch := r.pending
	r.pending = make(map[int64]time.Time)
	cutoff := r.clock.Now().Add(-FlushInterval)
	for id, w := range r.written {
		if w.Before(cutoff) {
			delete(r.written, id)
		}
	}
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := r.store.TouchLastUsed(ctx, batch); err != nil {
		// Kept for the next flush (a newer use wins): a flush that waited
		// too long for the database loses nothing.
		r.mu.Lock()
		for id, at := range batch {
			if cur, ok := r.pending[id]; !ok || cur.Before(at) {
				r.pending[id] = at
			}
		}
		r.mu.Unlock()
		return err
	}
	return nil
}

// flushWait bounds one periodic flush, so that a database that is stuck
// (on SQLite, a transaction holding the writer) shows in the log every
// interval instead of holding the flush forever.
const flushWait = 30 * time.Second

// Run flushes every interval until ctx ends, then flushes once more with a
// fresh context so that a clean shutdown loses nothing.
func (r *LastUsedRecorder) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := r.Flush(final); err != nil {
				r.log.Error("flushing token last-use times", "err", err)
			}
			cancel()
			return
		case <-t.C:
			fctx, cancel := context.WithTimeout(ctx, flushWait)
			if err := r.Flush(fctx); err != nil && ctx.Err() == nil {
				r.log.Warn("flushing token last-use times; kept for the next flush", "err", err)
			}
			cancel()
		}
	}
}
