package http

import (
	"context"
	"net/http"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// issueExtraRoutes lists this area's routes (see routes.go): time tracking,
// stopwatches, deadlines, dependencies, subscriptions, pins, locks and
// issue templates.
func (s *kernel) issueExtraRoutes() []route {
	return []route{
		// 4.4 Users
		{"GET", "/user/times", scopes(catUser), "T", s.listMyTimes},
		{"GET", "/user/stopwatches", scopes(catUser), "T", s.listMyStopwatches},

		// 4.5 Repositories
		{"GET", R + "/issue_templates", scopes(catRepo), "-", s.listIssueTemplates},
		{"GET", R + "/issue_config", scopes(catRepo), "-", s.getIssueConfig},
		{"GET", R + "/issue_config/validate", scopes(catRepo), "-", s.validateIssueConfig},
		{"GET", R + "/new_pin_allowed", scopes(catRepo), "-", s.newPinAllowed},
		{"GET", R + "/times", scopes(catRepo), "T,IssuesEnabled", s.listRepoTimes},
		{"GET", R + "/times/{timetrackingusername}", scopes(catRepo), "T,IssuesEnabled", s.listUserRepoTimes},

		// 4.6 Issues
		{"GET", R + "/issues/pinned", scopes(catIssue), "IssuesOrPulls,RR(issues)", s.listPinnedIssues},
		{"GET", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", s.listIssueTimes},
		{"POST", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", s.addIssueTime},
		{"DELETE", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", s.resetIssueTimes},
		{"DELETE", R + "/issues/{index}/times/{id}", scopes(catIssue), "IssuesOrPulls,T", s.deleteIssueTime},
		{"POST", R + "/issues/{index}/deadline", scopes(catIssue), "IssuesOrPulls,T", s.setIssueDeadline},
		{"POST", R + "/issues/{index}/stopwatch/start", scopes(catIssue), "IssuesOrPulls,T", s.startStopwatch},
		{"POST", R + "/issues/{index}/stopwatch/stop", scopes(catIssue), "IssuesOrPulls,T", s.stopStopwatch},
		{"DELETE", R + "/issues/{index}/stopwatch/delete", scopes(catIssue), "IssuesOrPulls,T", s.cancelStopwatch},
		{"GET", R + "/issues/{index}/subscriptions", scopes(catIssue), "IssuesOrPulls", s.listIssueSubscribers},
		{"GET", R + "/issues/{index}/subscriptions/check", scopes(catIssue), "IssuesOrPulls,T", s.checkIssueSubscription},
		{"PUT", R + "/issues/{index}/subscriptions/{user}", scopes(catIssue), "IssuesOrPulls,T", s.subscribeIssue},
		{"DELETE", R + "/issues/{index}/subscriptions/{user}", scopes(catIssue), "IssuesOrPulls,T", s.unsubscribeIssue},
		{"GET", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls", s.listIssueDependencies},
		{"POST", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls,T,NA", s.issueDependency(false, true)},
		{"DELETE", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls,T,NA", s.issueDependency(false, false)},
		{"GET", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls", s.listIssueBlocks},
		{"POST", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls,T", s.issueDependency(true, true)},
		{"DELETE", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls,T", s.issueDependency(true, false)},
		{"POST", R + "/issues/{index}/pin", scopes(catIssue), "IssuesOrPulls,T,RA", s.pinIssue},
		{"DELETE", R + "/issues/{index}/pin", scopes(catIssue), "IssuesOrPulls,T,RA", s.unpinIssue},
		{"PATCH", R + "/issues/{index}/pin/{position}", scopes(catIssue), "IssuesOrPulls,T,RA", s.moveIssuePin},
		{"PUT", R + "/issues/{index}/lock", scopes(catIssue), "IssuesOrPulls,T,RA", s.lockIssue},
		{"DELETE", R + "/issues/{index}/lock", scopes(catIssue), "IssuesOrPulls,T,RA", s.unlockIssue},
	}
}

// timeFilter reads user, since, before, page and limit.
func (s *kernel) timeFilter(q *request) (issues.TimeFilter, error) {
	var f issues.TimeFilter
	var err error
	if f.ListOptions, err = s.listOptions(q.r); err != nil {
		return f, err
	}
	if f.Since, err = issueQueryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Before, err = issueQueryTime(q, "before"); err != nil {
		return f, err
	}
	f.User = q.r.URL.Query().Get("user")
	return f, nil
}

// writeTimes answers a page of tracked times with their users and issues.
func (s *kernel) writeTimes(q *request, opts ports.ListOptions, list []*issue.TrackedTime, total int64) error {
	out, err := s.toTrackedTimes(q, list)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// toTrackedTimes renders times with their users and issues, each loaded
// once for the whole list.
func (s *kernel) toTrackedTimes(q *request, list []*issue.TrackedTime) ([]trackedTimeDTO, error) {
	views, err := s.issues.DescribeTimes(q.r.Context(), q.caller, list)
	if err != nil {
		return nil, err
	}
	var linked []issues.LinkedIssue
	for _, v := range views {
		if v.Issue != nil {
			linked = append(linked, *v.Issue)
		}
	}
	rendered, err := s.linkedIssueDTOs(q, linked)
	if err != nil {
		return nil, err
	}
	byIssue := make(map[int64]*issueDTO, len(linked))
	for i, l := range linked {
		byIssue[l.Issue.ID] = &rendered[i]
	}
	out := make([]trackedTimeDTO, 0, len(views))
	for _, v := range views {
		t := v.Time
		out = append(out, trackedTimeDTO{ID: t.ID, Created: t.CreatedAt.UTC(), Time: t.Seconds, UserID: t.UserID,
			UserName: v.UserName, IssueID: t.IssueID, Issue: byIssue[t.IssueID]})
	}
	return out, nil
}

// listIssueTimes answers GET R/issues/{index}/times.
func (s *kernel) listIssueTimes(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.IssueTimes(q.r.Context(), q.repo, index, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// addIssueTime answers POST R/issues/{index}/times with 200 and the time.
func (s *kernel) addIssueTime(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b struct {
		Time     int64      `json:"time"`
		Created  *time.Time `json:"created"`
		UserName string     `json:"user_name"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := issues.AddTimeInput{Seconds: b.Time, UserName: b.UserName}
	if b.Created != nil {
		in.Created = *b.Created
	}
	t, err := s.issues.AddTime(q.r.Context(), q.repo, index, in)
	if err != nil {
		return err
	}
	out, err := s.toTrackedTimes(q, []*issue.TrackedTime{t})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out[0])
	return nil
}

// resetIssueTimes answers DELETE R/issues/{index}/times with 204.
func (s *kernel) resetIssueTimes(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.ResetTimes(q.r.Context(), q.repo, index))
}

// deleteIssueTime answers DELETE R/issues/{index}/times/{id} with 204.
func (s *kernel) deleteIssueTime(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.issues.DeleteTime(q.r.Context(), q.repo, index, id))
}

// listRepoTimes answers GET R/times.
func (s *kernel) listRepoTimes(q *request) error {
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.RepoTimes(q.r.Context(), q.repo, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// listUserRepoTimes answers GET R/times/{timetrackingusername}.
func (s *kernel) listUserRepoTimes(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.UserRepoTimes(q.r.Context(), q.repo, q.var_("timetrackingusername"), opts)
	if err != nil {
		return err
	}
	return s.writeTimes(q, opts, list, total)
}

// listMyTimes answers GET /user/times.
func (s *kernel) listMyTimes(q *request) error {
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.MyTimes(q.r.Context(), q.caller, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// startStopwatch answers POST R/issues/{index}/stopwatch/start with 201.
func (s *kernel) startStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.StartStopwatch, http.StatusCreated)
}

// stopStopwatch answers POST R/issues/{index}/stopwatch/stop with 201.
func (s *kernel) stopStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.StopStopwatch, http.StatusCreated)
}

// cancelStopwatch answers DELETE R/issues/{index}/stopwatch/delete with 204.
func (s *kernel) cancelStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.CancelStopwatch, http.StatusNoContent)
}

func (s *kernel) stopwatchAction(q *request, do func(ctx context.Context, a *repos.Access, index int64) error, status int) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	if err := do(q.r.Context(), q.repo, index); err != nil {
		return err
	}
	q.w.WriteHeader(status)
	return nil
}

// listMyStopwatches answers GET /user/stopwatches.
func (s *kernel) listMyStopwatches(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.MyStopwatches(q.r.Context(), q.caller, opts)
	if err != nil {
		return err
	}
	out := make([]stopwatchDTO, 0, len(list))
	for _, sw := range list {
		out = append(out, stopwatchDTO{Created: sw.Stopwatch.CreatedAt.UTC(), Seconds: sw.Seconds,
			Duration: issue.FormatDuration(sw.Seconds), IssueIndex: sw.Issue.Index, IssueTitle: sw.Issue.Title,
			RepoOwnerName: sw.Repo.Owner.Name, RepoName: sw.Repo.Name})
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// setIssueDeadline answers POST R/issues/{index}/deadline with 201 and the
// stored deadline. due_date is a date-time or a bare date; null or absent
// removes the deadline.
func (s *kernel) setIssueDeadline(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b struct {
		DueDate *string `json:"due_date"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	var due *time.Time
	if b.DueDate != nil && *b.DueDate != "" {
		t, err := time.Parse(time.RFC3339, *b.DueDate)
		if err != nil {
			if t, err = time.Parse(time.DateOnly, *b.DueDate); err != nil {
				return errs.Invalid("must be an RFC 3339 date and time or a date (YYYY-MM-DD)", "DueDate")
			}
		}
		due = &t
	}
	d, err := s.issues.SetDeadline(q.r.Context(), q.repo, index, due)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, issueDeadlineDTO{Deadline: d})
	return nil
}
