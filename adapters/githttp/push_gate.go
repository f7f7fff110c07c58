package githttp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofrs/flock"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// The push gate lets `depot dump` take its snapshot between pushes. Each
// push holds a shared lock on the gate file from before git starts until
// git has exited, which is after its post-receive hook has recorded the
// push in the database; a dump holds the exclusive lock while it freezes
// the database and reads every repository's references. A push is thus
// wholly before the dump's instant (its references and rows both in the
// dump) or wholly after it (neither). The lock is a file lock (gofrs/flock:
// flock(2), or LockFileEx on Windows) on a file in the data directory, so it
// holds between the server and the dump's own process, and between the
// servers sharing a volume that supports such locks. Neither side waits
// without end: a push waits at most the runner's PushGateWait and is then
// refused as busy; the dump bounds its own wait (app/backup's LockTimeout).

// PushGateFile is the gate file's name in the data directory.
const PushGateFile = "push.lock"

// ErrPushGateBusy is HoldPush's answer when a dump held the gate for
// longer than the runner's PushGateWait: the push is refused (the site is
// busy) rather than left waiting without end.
var ErrPushGateBusy = errors.New("a dump holds pushes back")

// HoldPush takes the push gate for inv when it changes references (a
// receive-pack that is more than the advertisement) and returns its
// release; other invocations pass at once. It waits while a dump holds the
// gate, at most the runner's PushGateWait (then ErrPushGateBusy).
func (r *Runner) HoldPush(ctx context.Context, inv Invocation) (func(), error) {
	if r.gateFile == "" || inv.Service != repository.ServiceReceivePack || inv.AdvertiseRefs {
		return func() {}, nil
	}
	wait := ctx
	if r.gateWait > 0 {
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeoutCause(ctx, r.gateWait, ErrPushGateBusy)
		defer cancel()
	}
	release, err := lockGate(wait, r.gateFile, true)
	if err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(wait), ErrPushGateBusy) {
			err = fmt.Errorf("%w: waited %s for %s", ErrPushGateBusy, r.gateWait, r.gateFile)
		}
		return nil, fmt.Errorf("githttp: push gate: %w", err)
	}
	return release, nil
}

// PushGateRefusal is what a client whose push HoldPush refused is told.
func PushGateRefusal(err error) string {
	if errors.Is(err, ErrPushGateBusy) {
		return "a backup is holding pushes back; try again in a moment"
	}
	return "the site is busy, try again"
}

// PushGate is the dump's side of the gate (ports.PushGate).
type PushGate struct{ file string }

var _ ports.PushGate = (*PushGate)(nil)

// NewPushGate is the gate of the data directory whose gate file is file.
func NewPushGate(file string) *PushGate { return &PushGate{file: file} }

// Close waits for the running pushes to end and holds new ones back until
// reopen is called.
func (g *PushGate) Close(ctx context.Context) (func(), error) {
	release, err := lockGate(ctx, g.file, false)
	if err != nil {
		return nil, fmt.Errorf("githttp: closing the push gate %s: %w", g.file, err)
	}
	return release, nil
}

// lockGate takes the gate file's lock, shared or exclusive, polling so that
// ctx can end the wait, and returns its release.
func lockGate(ctx context.Context, file string, shared bool) (func(), error) {
	l := flock.New(file, flock.SetPermissions(0o600))
	try := l.TryLockContext
	if shared {
		try = l.TryRLockContext
	}
	ok, err := try(ctx, 10*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ctx.Err()
	}
	return func() { _ = l.Unlock() }, nil
}
