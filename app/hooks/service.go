// Package hooks holds webhooks: managing repository, user, organisation and
// system hooks and the repositories' Git hook scripts (Service), and turning
// events into queued deliveries that workers send (Dispatcher).
package hooks

import (
	"log/slog"

	"github.com/depothq/depot/ports"
)

// Service runs the webhook management use cases.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	log    *slog.Logger
}

// NewService builds the webhook management use cases.
func NewService(stores ports.Stores, tx ports.Transactor, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, log: log}
}
