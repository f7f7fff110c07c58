package pulls

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// KindAutoMerge is the job that performs a scheduled merge once the head's
// statuses succeed.
const KindAutoMerge = "pull.automerge"

// autoMergePayload is an automatic merge job's input.
type autoMergePayload struct {
	PullID int64 `json:"pull_id"`
}

func (s *Service) registerAutoMerge(runner *jobs.Runner) {
	runner.Handle(KindAutoMerge, jobs.KindOptions{MaxAttempts: 5, Concurrency: 1, Lease: 10 * time.Minute}, s.runAutoMerge)
	s.onChecked = s.enqueueAutoMergeAfterCheck
}

// enqueueAutoMerge queues an attempt at a pull request's scheduled merge.
func enqueueAutoMerge(ctx context.Context, tx ports.Stores, pullID int64) error {
	b, err := json.Marshal(autoMergePayload{PullID: pullID})
	if err != nil {
		return err
	}
	key := "automerge:" + strconv.FormatInt(pullID, 10)
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindAutoMerge, Queue: key, Dedup: key, Payload: b})
	return err
}

// statusesState is the combined state of a commit's latest statuses: ""
// when none was reported.
func statusesState(ctx context.Context, st ports.Stores, repoID int64, sha string) (commitstatus.State, error) {
	counts, err := st.CommitStatuses.LatestStates(ctx, repoID, sha)
	if err != nil {
		return "", err
	}
	return commitstatus.CombineCounts(counts), nil
}

// checksAllowMerge reports whether the head's statuses let a scheduled
// merge go: every reported status succeeded, or none was reported (the
// rule Gitea applies without a branch protection requiring contexts).
func checksAllowMerge(state commitstatus.State) bool {
	return state == "" || state == commitstatus.Success
}

// scheduleAutoMerge schedules a merge for when the head's checks succeed
// (Gitea's ScheduleAutoMerge): when they already have and the pull request
// is mergeable, nothing is scheduled and the caller merges at once.
func (s *Service) scheduleAutoMerge(ctx context.Context, base *repository.Repository, i *issue.Issue, p *pull.PullRequest,
	doer *user.User, style pull.Style, message string, deleteBranch bool) (bool, error) {
	state, err := statusesState(ctx, s.stores, base.ID, p.HeadCommitID)
	if err != nil {
		return false, err
	}
	mergeable := p.Status == pull.StatusMergeable || p.Status == pull.StatusEmpty
	required, err := s.protectionChecksPass(ctx, base, p)
	if err != nil {
		return false, err
	}
	if checksAllowMerge(state) && mergeable && required {
		return false, nil
	}
	now := s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Pulls.ScheduleAutoMerge(ctx, &pull.AutoMerge{PullID: p.ID, DoerID: doer.ID, Style: style,
			Message: message, DeleteBranch: deleteBranch, HeadCommitID: p.HeadCommitID, Created: now}); err != nil {
			return err
		}
		if err := issues.RecordEvent(ctx, tx, i, issue.CommentScheduledMerge, doer.ID, now, nil); err != nil {
			return err
		}
		// A check or status that landed while this was scheduled found
		// nothing to run; one attempt now sees them.
		return enqueueAutoMerge(ctx, tx, p.ID)
	})
	if err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return false, errs.Conflict("the pull request is already scheduled to merge when checks succeed")
		}
		return false, err
	}
	s.jobs.Notify()
	return true, nil
}

// CancelAutoMerge cancels a scheduled merge (DELETE R/pulls/{index}/merge):
// whoever scheduled it or a repository administrator may.
func (s *Service) CancelAutoMerge(ctx context.Context, a *repos.Access, index int64) error {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	m, err := s.stores.Pulls.AutoMerge(ctx, p.ID)
	if err != nil {
		return err
	}
	if m.DoerID != a.Caller.UserID() && !a.Perm.IsAdmin() && !a.Caller.IsAdmin() {
		return errs.Forbidden("user has no permission to cancel the scheduled auto merge")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Pulls.DeleteAutoMerge(ctx, p.ID); err != nil {
			return err
		}
		return issues.RecordEvent(ctx, tx, i, issue.CommentCancelScheduledMerge, a.Caller.UserID(), s.clock.Now(), nil)
	})
}

// recordStatus queues an attempt at the scheduled merges of the open pull
// requests whose head is the commit a status was reported on
// (content.StatusRecorder).
func (s *Service) recordStatus(ctx context.Context, tx ports.Stores, r *repository.Repository, sha string) error {
	list, err := tx.Pulls.ScheduledForHead(ctx, r.ID, sha)
	if err != nil {
		return err
	}
	for _, id := range list {
		if err := enqueueAutoMerge(ctx, tx, id); err != nil {
			return err
		}
	}
	if len(list) > 0 {
		s.jobs.Notify()
	}
	return nil
}

// enqueueAutoMergeAfterCheck queues an attempt when a check recorded a
// result and a merge is scheduled.
func (s *Service) enqueueAutoMergeAfterCheck(ctx context.Context, pullID int64) {
	if _, err := s.stores.Pulls.AutoMerge(ctx, pullID); err != nil {
		return
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return enqueueAutoMerge(ctx, tx, pullID) })
	if err != nil {
		s.log.Warn("queueing an automatic merge", "pull", pullID, "err", err)
		return
	}
	s.jobs.Notify()
}

// runAutoMerge performs a scheduled merge if it may go now: the head has
// not moved since it was scheduled (else it is cancelled), the pull
// request is mergeable, its statuses succeeded, and the scheduler may still
// merge. Otherwise it waits for the next status or check.
func (s *Service) runAutoMerge(ctx context.Context, j *ports.Job) error {
	var in autoMergePayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.PullID <= 0 {
		return jobs.Permanent(errors.New("pulls: unreadable automatic merge payload"))
	}
	// A status or check arriving while this attempt runs queues the next
	// attempt rather than being folded into this one (as checks do).
	if err := s.stores.Jobs.ReleaseDedup(ctx, j.ID); err != nil {
		return err
	}
	m, err := s.stores.Pulls.AutoMerge(ctx, in.PullID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	p, err := s.pullByID(ctx, in.PullID)
	if errors.Is(err, errs.ErrNotFound) {
		return s.dropAutoMerge(ctx, in.PullID)
	}
	if err != nil {
		return err
	}
	if p.HeadCommitID != m.HeadCommitID {
		return s.dropAutoMerge(ctx, in.PullID) // a push cancels it, as Gitea does
	}
	state, err := statusesState(ctx, s.stores, p.BaseRepoID, p.HeadCommitID)
	if err != nil {
		return err
	}
	if !checksAllowMerge(state) || (p.Status != pull.StatusMergeable && p.Status != pull.StatusEmpty) {
		return nil
	}
	base, err := s.stores.Repos.GetByID(ctx, p.BaseRepoID)
	if err != nil {
		return err
	}
	if ok, err := s.protectionChecksPass(ctx, base, p); err != nil || !ok {
		return err // the rule's required contexts have not all succeeded yet
	}
	doer, err := s.stores.Users.GetByID(ctx, m.DoerID)
	if errors.Is(err, errs.ErrNotFound) {
		return s.dropAutoMerge(ctx, in.PullID)
	}
	if err != nil {
		return err
	}
	a, err := s.repos.OpenByID(ctx, auth.Caller{User: doer}, p.BaseRepoID)
	if err != nil {
		return s.dropAutoMerge(ctx, in.PullID)
	}
	i, err := s.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return err
	}
	if err := pull.CanMerge(pull.MergeRequest{Pull: p, Title: i.Title, IsClosed: i.IsClosed, Base: a.Perm,
		Settings: a.Repo.Merge, Style: m.Style}); err != nil {
		if errors.Is(err, errs.ErrForbidden) || errors.Is(err, errs.ErrNotFound) {
			return s.dropAutoMerge(ctx, in.PullID)
		}
		return nil // not mergeable now: the next check or status tries again
	}
	if err := s.checkMergeProtection(ctx, a, p, doer, false, false); err != nil {
		if errors.Is(err, errs.ErrNotAllowed) {
			return nil // the rule's conditions do not hold yet
		}
		return err
	}
	if err := s.mergeNow(ctx, a.Repo, i, p, doer, m.Style, m.Message, m.HeadCommitID); err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return nil
		}
		return err
	}
	if m.DeleteBranch && a.Perm.CanWrite(permission.UnitCode) {
		s.deleteHeadBranch(ctx, a, p, doer)
	}
	return nil
}

// dropAutoMerge forgets a scheduled merge that can no longer happen.
func (s *Service) dropAutoMerge(ctx context.Context, pullID int64) error {
	return errs.IgnoreNotFound(s.stores.Pulls.DeleteAutoMerge(ctx, pullID))
}
