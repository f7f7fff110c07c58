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
	return r.store.TouchLastUsed(ctx, batch)
}

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
			if err := r.Flush(ctx); err != nil {
				r.log.Error("flushing token last-use times", "err", err)
			}
		}
	}
}
