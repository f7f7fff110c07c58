package githttp

import (
	"context"
	"fmt"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// The push gate lets `depot dump` take its snapshot between pushes. Each
// push holds a shared lock on the gate file from before git starts until
// git has exited, which is after its post-receive hook has recorded the
// push in the database; a dump holds the exclusive lock while it freezes
// the database and reads every repository's references. A push is thus
// wholly before the dump's instant (its references and rows both in the
// dump) or wholly after it (neither). The lock is flock(2) on a file in the
// data directory, so it holds between the server and the dump's own
// process, and between the servers sharing a volume that supports flock.

// PushGateFile is the gate file's name in the data directory.
const PushGateFile = "push.lock"

// HoldPush takes the push gate for inv when it changes references (a
// receive-pack that is more than the advertisement) and returns its
// release; other invocations pass at once. It waits while a dump holds the
// gate.
func (r *Runner) HoldPush(ctx context.Context, inv Invocation) (func(), error) {
	if r.gateFile == "" || inv.Service != repository.ServiceReceivePack || inv.AdvertiseRefs {
		return func() {}, nil
	}
	f, err := lockGate(ctx, r.gateFile, lockShared)
	if err != nil {
		return nil, fmt.Errorf("githttp: push gate: %w", err)
	}
	return func() { _ = f.Close() }, nil
}

// PushGate is the dump's side of the gate (ports.PushGate).
type PushGate struct{ file string }

var _ ports.PushGate = (*PushGate)(nil)

// NewPushGate is the gate of the data directory whose gate file is file.
func NewPushGate(file string) *PushGate { return &PushGate{file: file} }

// Close waits for the running pushes to end and holds new ones back until
// reopen is called.
func (g *PushGate) Close(ctx context.Context) (func(), error) {
	f, err := lockGate(ctx, g.file, lockExclusive)
	if err != nil {
		return nil, fmt.Errorf("githttp: closing the push gate: %w", err)
	}
	return func() { _ = f.Close() }, nil
}
