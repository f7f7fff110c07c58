// Package actions holds the use cases of workflow automation: the secrets
// (Secrets, secrets.go) and variables of users, organisations and
// repositories, the workflows of a repository (workflows.go), the runs
// pushes and dispatches create (workflow_runs.go), the runners and their
// registration tokens (runners.go, runner_tokens.go), the tasks runners
// take and report on with their tokens (runner_tasks.go, task_tokens.go)
// and the artifacts runs upload (artifacts.go). Who may call which is the
// route table's business.
package actions

import (
	"strings"
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
	// secrets makes task tokens; signer signs runtime tokens and artifact
	// URLs; artifacts keeps the artifacts' bytes.
	secrets   ports.SecretGenerator
	signer    ports.ActionsSigner
	artifacts ports.ArtifactBlobs
	// baseURL is the site's, without a trailing slash, for the links of
	// the commit statuses jobs post.
	baseURL string
	// logs keeps the logs of finished tasks.
	logs ports.ActionLogFiles
	// runners and versions keep what idle runners' polls read.
	runners  *runnerCache
	versions *versionCache
	// parsed keeps parsed workflow files by repository and blob.
	parsed *parsedWorkflows
}

// Kit is what the tasks' tokens and the artifacts need.
type Kit struct {
	Secrets   ports.SecretGenerator
	Signer    ports.ActionsSigner
	Artifacts ports.ArtifactBlobs
	// BaseURL is the site's base URL.
	BaseURL string
	// Logs keeps finished tasks' logs out of the database.
	Logs ports.ActionLogFiles
}

// NewService builds the workflow automation use cases; box seals secrets at
// rest. It registers the job that turns pushes into runs with runner and
// queues it with every push ts records.
func NewService(stores ports.Stores, tx ports.Transactor, box ports.SecretBox, clock ports.Clock,
	git ports.GitContent, ts *transport.Service, runner *jobs.Runner, kit Kit) *Service {
	s := &Service{stores: stores, tx: tx, box: box, clock: clock, git: git, secrets: kit.Secrets, signer: kit.Signer,
		artifacts: kit.Artifacts, baseURL: strings.TrimSuffix(kit.BaseURL, "/"), logs: kit.Logs,
		runners: &runnerCache{}, versions: &versionCache{}, parsed: newParsedWorkflows()}
	if runner != nil && ts != nil { // nil in use-case tests that need neither
		runner.Handle(KindPushRuns, jobs.KindOptions{MaxAttempts: 5, Concurrency: 2, Lease: 5 * time.Minute}, s.runPushRuns)
		runner.Handle(KindLogArchive, jobs.KindOptions{MaxAttempts: 10, Concurrency: 1, Lease: 10 * time.Minute}, s.runLogArchive)
		ts.OnPush(s.recordPush)
	}
	return s
}
