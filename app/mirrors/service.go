// Package mirrors holds migrations (importing a repository from another Git
// server), pull mirrors and push mirrors.
package mirrors

import (
	"log/slog"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/ports"
)

// Service runs the migration and mirror use cases.
type Service struct {
	stores  ports.Stores
	tx      ports.Transactor
	repos   *repos.Service
	remotes ports.GitRemotes
	out     ports.Outbound
	jobs    *jobs.Runner
	log     *slog.Logger
}

// NewService builds the mirror use cases and registers their job handlers.
func NewService(stores ports.Stores, tx ports.Transactor, rs *repos.Service, remotes ports.GitRemotes,
	out ports.Outbound, runner *jobs.Runner, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, repos: rs, remotes: remotes, out: out, jobs: runner, log: log}
}
