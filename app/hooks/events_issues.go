package hooks

// PLACEHOLDER: written by a helper (issue webhooks).

import (
	"context"

	"github.com/depothq/depot/ports"
)

// IssueChanged queues the deliveries of an issue change.
func (d *Dispatcher) IssueChanged(ctx context.Context, tx ports.Stores, e ports.IssueEvent) error {
	return nil
}
