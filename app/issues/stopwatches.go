package issues

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Stopwatches are the use cases of the stopwatches users run on issues.
type Stopwatches struct{ *Service }

// Stopwatches returns the stopwatch use cases.
func (s *Service) Stopwatches() Stopwatches { return Stopwatches{s} }

// RunningStopwatch is a stopwatch with the issue and repository it runs on.
type RunningStopwatch struct {
	Stopwatch *issue.Stopwatch
	Issue     *issue.Issue
	Repo      *repository.Repository
	// Seconds is how long it has run.
	Seconds int64
}

// open opens the issue for a stopwatch change: issue writers who
// may track time on it (403 otherwise, as Gitea answers even when the
// tracker is off).
func (s Stopwatches) open(ctx context.Context, a *repos.Access, index int64) (*issue.Issue, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if !canWrite(a, i) {
		return nil, errs.Forbidden("not allowed to use the stopwatch on this issue")
	}
	f, err := s.trackFacts(ctx, a, i)
	if err != nil {
		return nil, err
	}
	if err := issue.CheckTrackTime(f); err != nil {
		return nil, errs.Forbidden("cannot use the time tracker")
	}
	return i, nil
}

var errNoStopwatch = errs.Conflict("cannot stop/cancel a non existent stopwatch")

// finishStopwatch books the time sw ran as a tracked time with a
// stop_tracking event, and removes it.
func finishStopwatch(ctx context.Context, tx ports.Stores, i *issue.Issue, sw *issue.Stopwatch, now time.Time) error {
	secs := issue.StopwatchSeconds(sw.CreatedAt, now)
	t := &issue.TrackedTime{IssueID: i.ID, UserID: sw.UserID, Seconds: secs, CreatedAt: now}
	if err := tx.TrackedTimes.Add(ctx, t); err != nil {
		return err
	}
	err := timelineEvent(ctx, tx, i, issue.CommentStopTracking, sw.UserID, now, func(c *issue.Comment) {
		c.Content, c.TimeID = issue.FormatDuration(secs), t.ID
	})
	if err != nil {
		return err
	}
	return tx.TrackedTimes.DeleteStopwatch(ctx, sw.ID)
}

// Start starts the caller's stopwatch on an issue (409 when one
// runs there already). One running on another issue is stopped first, its
// time booked, as Gitea does.
func (s Stopwatches) Start(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.open(ctx, a, index)
	if err != nil {
		return err
	}
	uid, now := a.Caller.UserID(), s.clock.Now()
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		other, err := tx.TrackedTimes.UserStopwatch(ctx, uid)
		switch {
		case errors.Is(err, errs.ErrNotFound):
		case err != nil:
			return err
		case other.IssueID == i.ID:
			return errs.Conflict("cannot start a stopwatch again if it already exists")
		default:
			oi, err := tx.Issues.GetByID(ctx, other.IssueID)
			if err != nil {
				return err
			}
			if err := finishStopwatch(ctx, tx, oi, other, now); err != nil {
				return err
			}
		}
		if err := tx.TrackedTimes.StartStopwatch(ctx, &issue.Stopwatch{IssueID: i.ID, UserID: uid, CreatedAt: now}); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, i, issue.CommentStartTracking, uid, now, nil)
	})
}

// Stop stops the caller's stopwatch on an issue and books its
// time (409 when none runs there).
func (s Stopwatches) Stop(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.open(ctx, a, index)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		sw, err := tx.TrackedTimes.Stopwatch(ctx, i.ID, a.Caller.UserID())
		if errors.Is(err, errs.ErrNotFound) {
			return errNoStopwatch
		}
		if err != nil {
			return err
		}
		return finishStopwatch(ctx, tx, i, sw, s.clock.Now())
	})
}

// Cancel drops the caller's stopwatch on an issue without booking
// time (409 when none runs there).
func (s Stopwatches) Cancel(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.open(ctx, a, index)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		sw, err := tx.TrackedTimes.Stopwatch(ctx, i.ID, a.Caller.UserID())
		if errors.Is(err, errs.ErrNotFound) {
			return errNoStopwatch
		}
		if err != nil {
			return err
		}
		if err := tx.TrackedTimes.DeleteStopwatch(ctx, sw.ID); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, i, issue.CommentCancelTracking, sw.UserID, s.clock.Now(), nil)
	})
}

// Mine lists one page of the caller's running stopwatches with
// their issues and repositories (/user/stopwatches).
func (s Stopwatches) Mine(ctx context.Context, c auth.Caller, opts ports.ListOptions) ([]RunningStopwatch, int64, error) {
	list, total, err := s.stores.TrackedTimes.UserStopwatches(ctx, c.UserID(), opts)
	if err != nil || len(list) == 0 {
		return []RunningStopwatch{}, total, err
	}
	ids := make([]int64, len(list))
	for i, sw := range list {
		ids[i] = sw.IssueID
	}
	found, err := s.stores.Issues.GetByIDs(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[int64]*issue.Issue, len(found))
	for _, i := range found {
		byID[i.ID] = i
	}
	repoOf, err := s.reposOf(ctx, found)
	if err != nil {
		return nil, 0, err
	}
	now := s.clock.Now()
	out := make([]RunningStopwatch, 0, len(list))
	for _, sw := range list {
		i := byID[sw.IssueID]
		if i == nil || repoOf[i.RepoID] == nil {
			continue
		}
		out = append(out, RunningStopwatch{Stopwatch: sw, Issue: i, Repo: repoOf[i.RepoID],
			Seconds: issue.StopwatchSeconds(sw.CreatedAt, now)})
	}
	return out, total, nil
}

// reposOf loads the repositories of these issues in one query, keyed by
// id; a repository gone since is absent.
func (s *Service) reposOf(ctx context.Context, list []*issue.Issue) (map[int64]*repository.Repository, error) {
	ids := make([]int64, 0, len(list))
	for _, i := range list {
		ids = append(ids, i.RepoID)
	}
	return s.stores.Repos.GetByIDs(ctx, uniqueIDs(ids))
}
