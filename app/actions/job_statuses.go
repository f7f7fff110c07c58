package actions

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// jobCommitState is the commit status state a job's status reports, as
// Gitea's: a cancelled job fails its check, one not finished is pending.
func jobCommitState(status string) commitstatus.State {
	switch status {
	case actions.StatusSuccess:
		return commitstatus.Success
	case actions.StatusFailure, actions.StatusCancelled:
		return commitstatus.Failure
	case actions.StatusSkipped:
		return commitstatus.Skipped
	case actions.StatusWaiting, actions.StatusBlocked, actions.StatusRunning:
		return commitstatus.Pending
	}
	return commitstatus.Error
}

// jobStatusDescription is a job status's description in Gitea's words;
// took is how long the job ran.
func jobStatusDescription(status string, took time.Duration) string {
	took = took.Round(time.Second)
	switch status {
	case actions.StatusSuccess:
		return "Successful in " + took.String()
	case actions.StatusFailure:
		return "Failing after " + took.String()
	case actions.StatusCancelled:
		return "Canceled after " + took.String()
	case actions.StatusSkipped:
		return "Skipped"
	case actions.StatusRunning:
		return "In progress"
	case actions.StatusWaiting:
		return "Waiting to run"
	case actions.StatusBlocked:
		return "Blocked by required conditions"
	}
	return "Unknown status: " + status
}

// jobStatus is one job's state to post on its run's commit; Took is how
// long it ran (zero for a job that never started).
type jobStatus struct {
	Job  *actions.RunJob
	Took time.Duration
}

// postJobStatuses records, inside tx, the jobs' states as commit statuses
// of the run's commit (jobCommitStatuses). repo is the run's repository,
// nil to look it up.
func (s *Service) postJobStatuses(ctx context.Context, tx ports.Stores, repo *repository.Repository, run *actions.Run,
	jobs []jobStatus, now time.Time) error {
	if len(jobs) == 0 || !reportsStatuses(run) {
		return nil
	}
	if repo == nil {
		var err error
		if repo, err = tx.Repos.GetByID(ctx, run.RepoID); err != nil {
			return err
		}
	}
	return tx.CommitStatuses.CreateMany(ctx, s.jobCommitStatuses(repo, run, jobs, now))
}

// reportsStatuses says whether the run's jobs post commit statuses: only
// push and pull request runs do, as in Gitea.
func reportsStatuses(run *actions.Run) bool {
	return run.Event == "push" || run.Event == "pull_request"
}

// jobCommitStatuses are the jobs' states as commit statuses of the run's
// commit, by the Actions pseudo-user, with the context
// "<workflow name> / <job> (<event>)" that branch protections and auto-merge
// read; repo is the run's repository.
func (s *Service) jobCommitStatuses(repo *repository.Repository, run *actions.Run, jobs []jobStatus,
	now time.Time) []*commitstatus.Status {
	runURL := s.baseURL + "/" + url.PathEscape(repo.Owner.Name) + "/" + url.PathEscape(repo.Name) +
		"/actions/runs/" + strconv.FormatInt(run.Index, 10)
	out := make([]*commitstatus.Status, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, &commitstatus.Status{RepoID: run.RepoID, SHA: run.CommitSHA, State: jobCommitState(j.Job.Status),
			TargetURL:   runURL + "/jobs/" + strconv.FormatInt(j.Job.ID, 10),
			Description: jobStatusDescription(j.Job.Status, j.Took),
			Context:     fmt.Sprintf("%s / %s (%s)", workflowName(run), jobName(j.Job), run.Event),
			CreatorID:   user.ActionsUserID, Created: now, Updated: now})
	}
	return out
}

// workflowName is the run's workflow's name: as the run was made; a run
// made before runs kept it has its file name.
func workflowName(run *actions.Run) string {
	if run.WorkflowName != "" {
		return run.WorkflowName
	}
	return path.Base(run.WorkflowID)
}

// jobName is the job's name, its key when it has none.
func jobName(j *actions.RunJob) string {
	if j.Name != "" {
		return j.Name
	}
	return j.JobID
}
