// Package actions holds the use cases of workflow automation: the secrets
// (Secrets, secrets.go) and variables of users, organisations and
// repositories, the workflows of a repository (workflows.go), the runs
// pushes and dispatches create (workflow_runs.go), the runners and their
// registration tokens (runners.go, runner_tokens.go) and the tasks runners
// take and report on (runner_tasks.go). Who may call which is the
// route table's business.
package actions

import (
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/ports"
)

// Service is what the workflow automation use cases share.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	box    ports.SecretBox
	clock  ports.Clock
	git    ports.GitContent
}

// NewService builds the workflow automation use cases; box seals secrets at
// rest. It registers the job that turns pushes into runs with runner and
// queues it with every push ts records.
func NewService(stores ports.Stores, tx ports.Transactor, box ports.SecretBox, clock ports.Clock,
	git ports.GitContent, ts *transport.Service, runner *jobs.Runner) *Service {
	s := &Service{stores: stores, tx: tx, box: box, clock: clock, git: git}
	if runner != nil && ts != nil { // nil in use-case tests that need neither
		runner.Handle(KindPushRuns, jobs.KindOptions{MaxAttempts: 5, Concurrency: 2, Lease: 5 * time.Minute}, s.runPushRuns)
		ts.OnPush(s.recordPush)
	}
	return s
}
