// Package hooks holds webhooks: managing repository, user, organisation and
// system hooks and the repositories' Git hook scripts (Service), and turning
// events into queued deliveries that workers send (Dispatcher).
package hooks

import (
	"log/slog"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// Service runs the webhook management use cases (Webhooks, webhooks.go)
// and the Git hook script use cases (GitHooks, git_hooks.go). Who may call
// which is the route table's business (RA, SA, WH); the Git hook rule, which
// is no access code, is checked here.
type Service struct {
	stores   ports.Stores
	tx       ports.Transactor
	scripts  ports.GitHookScripts
	seal     sealer
	clock    ports.Clock
	settings site.Settings
	log      *slog.Logger
}

// NewService builds the webhook management use cases; box seals the hooks'
// secrets and authorization headers at rest.
func NewService(stores ports.Stores, tx ports.Transactor, scripts ports.GitHookScripts, box ports.SecretBox,
	clock ports.Clock, settings site.Settings, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, scripts: scripts, seal: sealer{box}, clock: clock, settings: settings,
		log: log}
}
