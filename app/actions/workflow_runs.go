package actions

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// KindPushRuns is the job that creates the runs a push triggers.
const KindPushRuns = "actions.push"

// pushRunsPayload is a KindPushRuns job's input.
type pushRunsPayload struct {
	RepoID   int64                  `json:"repo_id"`
	PusherID int64                  `json:"pusher_id"`
	Changes  []repository.RefChange `json:"changes"`
	// Disabled are the workflows disabled when the push landed.
	Disabled []string `json:"disabled,omitempty"`
}

// recordPush queues, inside the transaction that records a push, the job
// that creates the runs of the branches and tags it created or moved. A
// push made with a task's token triggers nothing, as in Gitea: a workflow
// that pushes would otherwise run itself again and again.
func (s *Service) recordPush(ctx context.Context, tx ports.Stores, r *repository.Repository, pusherID int64,
	changes []repository.RefChange) error {
	if pusherID == user.ActionsUserID {
		return nil
	}
	var moved []repository.RefChange
	for _, c := range changes {
		if !c.IsDelete() && (strings.HasPrefix(c.Ref, "refs/heads/") || strings.HasPrefix(c.Ref, "refs/tags/")) {
			moved = append(moved, c)
		}
	}
	if len(moved) == 0 {
		return nil
	}
	// The workflows disabled now, not when the job runs, are left out.
	disabled, err := tx.ActionRuns.DisabledWorkflows(ctx, r.ID)
	if err != nil {
		return err
	}
	b, err := json.Marshal(pushRunsPayload{RepoID: r.ID, PusherID: pusherID, Changes: moved, Disabled: disabled})
	if err != nil {
		return err
	}
	// One repository's pushes are turned into runs in push order.
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindPushRuns, Queue: "actions:" + strconv.FormatInt(r.ID, 10), Payload: b})
	return err
}

// runPushRuns is the KindPushRuns job: for each pushed ref it reads the
// workflows of the pushed commit and creates a run of each enabled one
// whose push trigger matches (enabled when the push landed), all in one transaction. A workflow that does
// not parse is recorded as a failed run titled with the parser's message.
func (s *Service) runPushRuns(ctx context.Context, j *ports.Job) error {
	var in pushRunsPayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.RepoID <= 0 {
		return jobs.Permanent(errors.New("actions: unreadable push payload"))
	}
	r, err := s.stores.Repos.GetByID(ctx, in.RepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // deleted since
	}
	if err != nil {
		return err
	}
	disabled := make(map[string]bool, len(in.Disabled))
	for _, id := range in.Disabled {
		disabled[id] = true
	}
	var plan []ports.NewActionRun
	p := repoPath(r)
	for _, c := range in.Changes {
		files, err := s.Workflows().files(ctx, r, c.NewID, false)
		if errors.Is(err, errs.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if len(files) == 0 {
			continue
		}
		commit, err := s.git.Commit(ctx, p, c.NewID)
		if err != nil {
			return err
		}
		payload, err := json.Marshal(map[string]any{"ref": c.Ref, "before": c.OldID, "after": c.NewID})
		if err != nil {
			return err
		}
		for _, f := range files {
			if disabled[f.ID] {
				continue
			}
			wf, err := s.Workflows().parse(ctx, r, f)
			if err != nil && errs.Message(err) != "" && errors.Is(err, errs.ErrInvalid) {
				run := s.newRun(r.ID, in.PusherID, f.ID, f.ID, c.Ref, c.NewID, "push", string(payload), errs.Message(err))
				run.Status = actions.StatusFailure
				plan = append(plan, ports.NewActionRun{Run: run})
				continue
			}
			if err != nil {
				return err
			}
			if !wf.MatchesPush(c.Ref) {
				continue
			}
			run := s.newRun(r.ID, in.PusherID, f.ID, wf.Name, c.Ref, c.NewID, "push", string(payload), commitTitle(commit.Message))
			plan = append(plan, ports.NewActionRun{Run: run, Jobs: s.newJobs(wf)})
		}
	}
	if len(plan) == 0 {
		return nil
	}
	now := s.clock.Now()
	return s.inTxTasksChanged(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.ActionRuns.CreateRuns(ctx, plan); err != nil {
			return err
		}
		var statuses []*commitstatus.Status
		for _, pl := range plan {
			created := make([]jobStatus, len(pl.Jobs))
			for i, j := range pl.Jobs {
				created[i] = jobStatus{Job: j}
			}
			statuses = append(statuses, s.jobCommitStatuses(r, pl.Run, created, now)...)
		}
		return tx.CommitStatuses.CreateMany(ctx, statuses)
	})
}
