package pulls

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// KindCheck is the job that brings a pull request's head ref up to date
// and recomputes its mergeability.
const KindCheck = "pull.check"

// maxRechecks bounds the pull requests one push to a branch rechecks.
const maxRechecks = 1000

// checkRounds bounds how often one check job starts over because a branch
// moved while it ran (a push during a check enqueues nothing: the running
// job holds the dedup key).
const checkRounds = 3

func (s *Service) registerJobs(runner *jobs.Runner) {
	runner.Handle(KindCheck, jobs.KindOptions{MaxAttempts: 5, Concurrency: 2, Lease: 10 * time.Minute}, s.runCheck)
}

// checkPayload is a check job's input.
type checkPayload struct {
	PullID int64 `json:"pull_id"`
}

// enqueueCheck queues a check of one pull request inside tx; one already
// pending for it is enough.
func enqueueCheck(ctx context.Context, tx ports.Stores, pullID int64) error {
	b, err := json.Marshal(checkPayload{PullID: pullID})
	if err != nil {
		return err
	}
	key := "pull:" + strconv.FormatInt(pullID, 10)
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindCheck, Queue: key, Dedup: key, Payload: b})
	return err
}

// recordPush queues, inside the transaction that records a push, a check
// of every open pull request whose head or base branch the push moved or
// deleted, and records the pushes to heads (pull_pushes.go)
// (transport.PushRecorder).
func (s *Service) recordPush(ctx context.Context, tx ports.Stores, r *repository.Repository, pusherID int64,
	changes []repository.RefChange) error {
	if err := enqueueChecksOnPush(ctx, tx, r.ID, changes); err != nil {
		return err
	}
	return s.recordPullPushes(ctx, tx, r, pusherID, changes)
}

// enqueueChecksOnPush queues a check of every open pull request whose head
// or base is one of the branches changes moved, once each.
func enqueueChecksOnPush(ctx context.Context, tx ports.Stores, repoID int64, changes []repository.RefChange) error {
	seen := map[int64]bool{}
	for _, c := range changes {
		branch, ok := strings.CutPrefix(c.Ref, "refs/heads/")
		if !ok {
			continue
		}
		list, err := tx.Pulls.OpenOnBranch(ctx, repoID, branch, maxRechecks)
		if err != nil {
			return err
		}
		for _, p := range list {
			if seen[p.ID] {
				continue
			}
			seen[p.ID] = true
			if err := enqueueCheck(ctx, tx, p.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// runCheck is the check job: it copies the head branch to
// refs/pull/<index>/head, records a moved head, merges head into base in
// memory and records the result, as long as nothing moved meanwhile.
func (s *Service) runCheck(ctx context.Context, j *ports.Job) error {
	var in checkPayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.PullID <= 0 {
		return jobs.Permanent(errors.New("pulls: unreadable check payload"))
	}
	// A push while this check runs queues the next one (after this one, in
	// the pull request's queue) instead of being folded into a run that
	// may already have read the branches.
	if err := s.stores.Jobs.ReleaseDedup(ctx, j.ID); err != nil {
		return err
	}
	for round := 0; round < checkRounds; round++ {
		again, err := s.checkOnce(ctx, in.PullID)
		if err != nil || !again {
			return err
		}
	}
	return nil
}

// checkOnce runs one round of a check; again reports that a branch moved
// while it ran, so the result was not recorded.
func (s *Service) checkOnce(ctx context.Context, pullID int64) (again bool, err error) {
	p, err := s.pullByID(ctx, pullID)
	if errors.Is(err, errs.ErrNotFound) {
		return false, nil // deleted with its issue or repository
	}
	if err != nil || p.HasMerged {
		return false, err
	}
	base, err := s.stores.Repos.GetByID(ctx, p.BaseRepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	headID, err := s.SyncHead(ctx, base, p)
	if err != nil {
		return false, err
	}
	if headID == "" {
		_, err := s.stores.Pulls.SetCheck(ctx, p.ID, p.HeadCommitID, pull.Check{Status: pull.StatusError})
		return false, err
	}
	baseTip, err := s.git.Branch(ctx, pathOf(base), p.BaseBranch)
	if errors.Is(err, errs.ErrNotFound) {
		_, err := s.stores.Pulls.SetCheck(ctx, p.ID, headID, pull.Check{Status: pull.StatusError})
		return false, err
	}
	if err != nil {
		return false, err
	}
	c, err := s.pulls.CheckMerge(ctx, pathOf(base), baseTip.Commit.ID, headID)
	if err != nil {
		return false, err
	}
	// A branch that moved while the check ran makes it stale.
	if now, err := s.git.Branch(ctx, pathOf(base), p.BaseBranch); err != nil || now.Commit.ID != baseTip.Commit.ID {
		return true, nil
	}
	if c.Status == pull.StatusAncestor && base.Merge.AutodetectManualMerge {
		return false, s.detectManualMerge(ctx, base, p, headID)
	}
	ok, err := s.stores.Pulls.SetCheck(ctx, p.ID, headID, c)
	if err != nil {
		return false, err
	}
	if ok {
		s.afterCheck(ctx, p.ID)
	}
	return !ok, nil
}

// afterCheck runs after a check is recorded (the automatic merge
// looks whether it may now merge); nil when nothing is scheduled.
func (s *Service) afterCheck(ctx context.Context, pullID int64) {
	if s.onChecked != nil {
		s.onChecked(ctx, pullID)
	}
}

// detectManualMerge records a pull request whose head reached its base by
// a push as merged (the repository's AutodetectManualMerge, Gitea's
// manually_merged status): by the head commit, in the name of the base
// repository's owner, as no merger is known.
func (s *Service) detectManualMerge(ctx context.Context, base *repository.Repository, p *pull.PullRequest, headID string) error {
	i, err := s.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return err
	}
	owner, err := s.stores.Users.GetByID(ctx, base.Owner.ID)
	if err != nil {
		return err
	}
	if _, err := s.stores.Pulls.SetCheck(ctx, p.ID, headID, pull.Check{Status: pull.StatusManuallyMerged}); err != nil {
		return err
	}
	return s.recordMerge(ctx, base, i, p, owner, mergedCommit{id: headID, head: headID})
}

// pullByID loads a pull request that is still open: a closed one is
// reported absent, as nothing checks it.
func (s *Service) pullByID(ctx context.Context, id int64) (*pull.PullRequest, error) {
	p, err := s.stores.Pulls.GetByID(ctx, id)
	if err != nil {
		return nil, err
	}
	i, err := s.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return nil, err
	}
	if i.IsClosed {
		return nil, errPullNotFound
	}
	return p, nil
}

// SyncHead points refs/pull/<index>/head at the head branch's tip (copying
// the objects from a fork) and records a head that moved. It returns the
// head commit, or "" when the head branch or its repository is gone (the
// ref then keeps the last head, as Gitea's does).
func (s *Service) SyncHead(ctx context.Context, base *repository.Repository, p *pull.PullRequest) (string, error) {
	if p.HeadRepoID == 0 {
		return "", nil
	}
	headRepo := base
	if p.HeadRepoID != base.ID {
		r, err := s.stores.Repos.GetByID(ctx, p.HeadRepoID)
		if errors.Is(err, errs.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		headRepo = r
	}
	id, err := s.pulls.CopyRef(ctx, pathOf(headRepo), "refs/heads/"+p.HeadBranch, pathOf(base), p.HeadRef())
	if errors.Is(err, errs.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if id != p.HeadCommitID {
		if err := s.stores.Pulls.SetHead(ctx, p.ID, id); err != nil {
			return "", err
		}
		p.HeadCommitID = id
	}
	return id, nil
}

// reopenRule is the pull request side of an issue's state change.
type reopenRule struct{ s *Service }

// CheckStateChange refuses to close or reopen a merged pull request.
func (r reopenRule) CheckStateChange(ctx context.Context, i *issue.Issue) error {
	p, err := r.s.stores.Pulls.GetByIssueID(ctx, i.ID)
	if err != nil {
		return errs.IgnoreNotFound(err)
	}
	return pull.CanChangeState(p)
}

// CheckReopen refuses to reopen a pull request whose head branch is gone
// or that an open pull request with the same head and base duplicates.
func (r reopenRule) CheckReopen(ctx context.Context, i *issue.Issue) error {
	s := r.s
	p, err := s.stores.Pulls.GetByIssueID(ctx, i.ID)
	if err != nil {
		return errs.IgnoreNotFound(err)
	}
	if p.HeadRepoID == 0 {
		return errs.Invalid("the head repository of this pull request is gone", "state")
	}
	head, err := s.stores.Repos.GetByID(ctx, p.HeadRepoID)
	if err != nil {
		return errs.Invalid("the head repository of this pull request is gone", "state")
	}
	if _, err := s.git.Branch(ctx, pathOf(head), p.HeadBranch); errors.Is(err, errs.ErrNotFound) {
		return errs.Invalid("the head branch of this pull request does not exist", "state")
	} else if err != nil {
		return err
	}
	if other, err := s.stores.Pulls.FindUnmerged(ctx, p.BaseRepoID, p.BaseBranch, p.HeadRepoID, p.HeadBranch); err == nil && other.ID != p.ID {
		return errs.Conflict("an open pull request with the same head and base exists: #" + itoa(other.Index))
	} else if err != nil && !errors.Is(err, errs.ErrNotFound) {
		return err
	}
	return nil
}
