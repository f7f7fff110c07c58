package issues

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Times are the use cases of the time tracked on issues.
type Times struct{ *Service }

// Times returns the time-tracking use cases.
func (s *Service) Times() Times { return Times{s} }

// TimeFilter narrows a listing of tracked times.
type TimeFilter struct {
	// User is a user name to filter by ("" for every user the caller may see).
	User string
	// Since and Before bound the times' creation (zero means unbounded).
	Since, Before time.Time
	ports.ListOptions
}

// AddTimeInput is a manual time entry (Gitea's AddTimeOption).
type AddTimeInput struct {
	Seconds int64
	// Created is when the work was done; zero means now.
	Created time.Time
	// UserName books the time for another user (repository or site
	// administrators only; ignored for anyone else, as Gitea does).
	UserName string
}

// timelineEvent records a timeline event of this area on issue i, inside tx.
func timelineEvent(ctx context.Context, tx ports.Stores, i *issue.Issue, typ issue.CommentType, posterID int64,
	now time.Time, edit func(c *issue.Comment)) error {
	c := &issue.Comment{Type: typ, IssueID: i.ID, RepoID: i.RepoID, PosterID: posterID, CreatedAt: now, UpdatedAt: now}
	if edit != nil {
		edit(c)
	}
	return tx.Comments.Create(ctx, c)
}

// lookupUserByName finds an account by name; absent is a 404 naming users.
func (s *Service) lookupUserByName(ctx context.Context, name string) (*user.User, error) {
	u, err := s.stores.Users.GetByName(ctx, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound("user does not exist [name: " + name + "]")
	}
	return u, err
}

// trackFacts gathers what decides whether the caller may track time on i.
func (s *Service) trackFacts(ctx context.Context, a *repos.Access, i *issue.Issue) (issue.TimeTracking, error) {
	uid := a.Caller.UserID()
	f := issue.TimeTracking{
		Enabled:          a.Repo.Tracker.EnableTimeTracker,
		OnlyContributors: a.Repo.Tracker.AllowOnlyContributorsToTrackTime,
		Writer:           canWrite(a, i),
		Poster:           uid != 0 && i.PosterID == uid,
	}
	if f.Enabled && f.OnlyContributors && !f.Writer && !f.Poster && uid != 0 {
		as, err := s.stores.Issues.Assignees(ctx, []int64{i.ID})
		if err != nil {
			return f, err
		}
		for _, id := range as[i.ID] {
			f.Assignee = f.Assignee || id == uid
		}
	}
	return f, nil
}

// openTracking opens the issue for a time-tracking write.
func (s Times) openTracking(ctx context.Context, a *repos.Access, index int64) (*issue.Issue, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	f, err := s.trackFacts(ctx, a, i)
	if err != nil {
		return nil, err
	}
	return i, issue.CheckTrackTime(f)
}

// timeScope applies Gitea's rule for whose times a caller may list: site
// admins and issue writers anyone's, others only their own (a filter on
// someone else is a 403).
func (s Times) timeScope(ctx context.Context, a *repos.Access, f TimeFilter, q *ports.TrackedTimeQuery) error {
	if f.User != "" {
		u, err := s.lookupUserByName(ctx, f.User)
		if err != nil {
			return err
		}
		q.UserID = u.ID
	}
	uid := a.Caller.UserID()
	writer := a.Perm.CanWrite(permission.UnitIssues) || a.Perm.IsAdmin()
	if a.Caller.IsAdmin() || writer || q.UserID == uid {
		return nil
	}
	if q.UserID != 0 {
		return errs.Forbidden("query by user not allowed; not enough rights")
	}
	q.UserID = uid
	return nil
}

// OfIssue lists the tracked times of an issue (404 while the tracker is off).
func (s Times) OfIssue(ctx context.Context, a *repos.Access, index int64, f TimeFilter) ([]*issue.TrackedTime, int64, error) {
	if !a.Repo.Tracker.EnableTimeTracker {
		return nil, 0, errs.NotFound("Timetracker is disabled")
	}
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, 0, err
	}
	q := ports.TrackedTimeQuery{IssueID: i.ID, RepoID: a.Repo.ID, Since: f.Since, Before: f.Before, ListOptions: f.ListOptions}
	if err := s.timeScope(ctx, a, f, &q); err != nil {
		return nil, 0, err
	}
	return s.stores.TrackedTimes.List(ctx, q)
}

// checkRepoTimes is the rule of the repository's time listings: the time
// tracker on (else Gitea's 400). That the issues are readable is the route
// rows' IssuesEnabled code.
func checkRepoTimes(a *repos.Access) error {
	if !a.Repo.Tracker.EnableTimeTracker {
		return issue.ErrTimeTrackingDisabled
	}
	return nil
}

// OfRepo lists the tracked times of a repository (R/times).
func (s Times) OfRepo(ctx context.Context, a *repos.Access, f TimeFilter) ([]*issue.TrackedTime, int64, error) {
	if err := checkRepoTimes(a); err != nil {
		return nil, 0, err
	}
	q := ports.TrackedTimeQuery{RepoID: a.Repo.ID, Since: f.Since, Before: f.Before, ListOptions: f.ListOptions}
	if err := s.timeScope(ctx, a, f, &q); err != nil {
		return nil, 0, err
	}
	return s.stores.TrackedTimes.List(ctx, q)
}

// OfUserInRepo lists one user's tracked times in a repository
// (R/times/{user}): the user, a repository administrator or a site admin.
func (s Times) OfUserInRepo(ctx context.Context, a *repos.Access, name string, opts ports.ListOptions) ([]*issue.TrackedTime, int64, error) {
	if err := checkRepoTimes(a); err != nil {
		return nil, 0, err
	}
	u, err := s.lookupUserByName(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	if !a.Perm.IsAdmin() && !a.Caller.IsAdmin() && a.Caller.UserID() != u.ID {
		return nil, 0, errs.Forbidden("query by user not allowed; not enough rights")
	}
	return s.stores.TrackedTimes.List(ctx, ports.TrackedTimeQuery{RepoID: a.Repo.ID, UserID: u.ID, ListOptions: opts})
}

// Mine lists the caller's tracked times in every repository (/user/times).
func (s Times) Mine(ctx context.Context, c auth.Caller, f TimeFilter) ([]*issue.TrackedTime, int64, error) {
	return s.stores.TrackedTimes.List(ctx, ports.TrackedTimeQuery{UserID: c.UserID(), Since: f.Since, Before: f.Before, ListOptions: f.ListOptions})
}

// Add books time on an issue, with an add_time_manual event.
func (s Times) Add(ctx context.Context, a *repos.Access, index int64, in AddTimeInput) (*issue.TrackedTime, error) {
	i, err := s.openTracking(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if err := issue.ValidateTrackedSeconds(in.Seconds); err != nil {
		return nil, err
	}
	uid := a.Caller.UserID()
	if in.UserName != "" && ((a.Perm.IsAdmin() && in.UserName != a.Caller.User.Name) || a.Caller.IsAdmin()) {
		u, err := s.lookupUserByName(ctx, in.UserName)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.Invalid("user does not exist", "UserName")
		}
		if err != nil {
			return nil, err
		}
		uid = u.ID
	}
	now := s.timestamp()
	created := in.Created.UTC().Truncate(time.Microsecond) // what a later read gives back
	if in.Created.IsZero() {
		created = now
	}
	t := &issue.TrackedTime{IssueID: i.ID, UserID: uid, Seconds: in.Seconds, CreatedAt: created}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.TrackedTimes.Add(ctx, t); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, i, issue.CommentAddTimeManual, uid, now, func(c *issue.Comment) {
			c.Content, c.TimeID = issue.TimeContent(t.Seconds), t.ID
		})
	})
	return t, err
}

// Reset removes the caller's times on an issue, with one
// delete_time_manual event of their sum; 404 when there were none.
func (s Times) Reset(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.openTracking(ctx, a, index)
	if err != nil {
		return err
	}
	uid := a.Caller.UserID()
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		sum, err := tx.TrackedTimes.DeleteByIssueUser(ctx, i.ID, uid)
		if err != nil {
			return err
		}
		if sum == 0 {
			return errs.NotFound("no tracked time to reset")
		}
		return timelineEvent(ctx, tx, i, issue.CommentDeleteTimeManual, uid, s.clock.Now(), func(c *issue.Comment) {
			c.Content = issue.TimeContent(sum)
		})
	})
}

// Delete removes one tracked time of the issue: its owner or a site
// admin only.
func (s Times) Delete(ctx context.Context, a *repos.Access, index, id int64) error {
	i, err := s.openTracking(ctx, a, index)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		t, err := tx.TrackedTimes.GetByID(ctx, id)
		if err != nil {
			return err
		}
		if t.IssueID != i.ID {
			return errs.NotFound("tracked time does not exist")
		}
		if !a.Caller.IsAdmin() && t.UserID != a.Caller.UserID() {
			return errs.Forbidden("only the user who tracked the time or a site admin may delete it")
		}
		if err := tx.TrackedTimes.Delete(ctx, t.ID); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, i, issue.CommentDeleteTimeManual, t.UserID, s.clock.Now(), func(c *issue.Comment) {
			c.Content = issue.TimeContent(t.Seconds)
		})
	})
}

// TimeView is a tracked time with what its listing shows: the user's name
// ("Ghost" for a deleted account, as Gitea) and the issue when the caller
// may read it.
type TimeView struct {
	Time     *issue.TrackedTime
	UserName string
	Issue    *LinkedIssue
}

// ghostName stands for a deleted account, as in Gitea.
const ghostName = "Ghost"

// Describe loads the users and issues of these times, each once.
func (s Times) Describe(ctx context.Context, c auth.Caller, list []*issue.TrackedTime) ([]TimeView, error) {
	userIDs := make([]int64, 0, len(list))
	issueIDs := make([]int64, 0, len(list))
	for _, t := range list {
		userIDs, issueIDs = append(userIDs, t.UserID), append(issueIDs, t.IssueID)
	}
	names := map[int64]string{}
	if len(userIDs) > 0 {
		us, err := s.stores.Users.GetByIDs(ctx, uniqueIDs(userIDs))
		if err != nil {
			return nil, err
		}
		for _, u := range us {
			names[u.ID] = u.Name
		}
	}
	linked, err := s.readableIssues(ctx, c, uniqueIDs(issueIDs))
	if err != nil {
		return nil, err
	}
	byIssue := make(map[int64]*LinkedIssue, len(linked))
	for i := range linked {
		byIssue[linked[i].Issue.ID] = &linked[i]
	}
	out := make([]TimeView, 0, len(list))
	for _, t := range list {
		name, ok := names[t.UserID]
		if !ok {
			name = ghostName
		}
		out = append(out, TimeView{Time: t, UserName: name, Issue: byIssue[t.IssueID]})
	}
	return out, nil
}

// readableIssues loads these issues in order with their repositories,
// keeping the ones the caller may read, in a fixed number of queries: the
// issues, their repositories and the caller's relations to them.
func (s Times) readableIssues(ctx context.Context, c auth.Caller, ids []int64) ([]LinkedIssue, error) {
	list, err := s.inOrder(ctx, ids)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	found, err := s.reposOf(ctx, list)
	if err != nil {
		return nil, err
	}
	rs := make([]*repository.Repository, 0, len(found))
	for _, r := range found {
		rs = append(rs, r)
	}
	access, err := s.repos.AccessMany(ctx, c, rs)
	if err != nil {
		return nil, err
	}
	out := make([]LinkedIssue, 0, len(list))
	for _, i := range list {
		if ra := access[i.RepoID]; ra != nil && canRead(ra, i) {
			out = append(out, LinkedIssue{Issue: i, Repo: ra.Repo})
		}
	}
	return out, nil
}

// RecordEvent writes a timeline event on i inside tx, for the pull
// request use cases (retargets, pushes, merges).
func RecordEvent(ctx context.Context, tx ports.Stores, i *issue.Issue, typ issue.CommentType, posterID int64,
	now time.Time, edit func(c *issue.Comment)) error {
	return timelineEvent(ctx, tx, i, typ, posterID, now, edit)
}
