package libgit2

import (
	"context"
	"sync"
)

// background runs the storage's own background work (building a path's
// history index after a listing gave up waiting for it): each job once at
// a time by key, stopped and waited for by Close.
type background struct {
	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	running map[string]bool
	wg      sync.WaitGroup
}

func newBackground() *background {
	ctx, cancel := context.WithCancel(context.Background())
	return &background{ctx: ctx, cancel: cancel, running: map[string]bool{}}
}

// run starts fn unless a job with key runs or the storage is closed; fn
// waits for a place in slots first.
func (b *background) run(key string, slots chan struct{}, fn func(ctx context.Context)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running[key] || b.ctx.Err() != nil {
		return
	}
	b.running[key] = true
	b.wg.Add(1)
	go func() {
		defer func() {
			b.mu.Lock()
			delete(b.running, key)
			b.mu.Unlock()
			b.wg.Done()
		}()
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-b.ctx.Done():
			return
		}
		fn(b.ctx)
	}()
}

// close stops the jobs and waits for them.
func (b *background) close() {
	b.mu.Lock()
	b.cancel()
	b.mu.Unlock()
	b.wg.Wait()
}
