package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// issueTimes serves the time tracked on issues: the caller's (catalogue
// 4.4), a repository's (4.5) and an issue's (4.6).
type issueTimes struct{ *kernel }

// issueTimeRoutes are the rows of issueTimes.
func (s *kernel) issueTimeRoutes() []route {
	h := issueTimes{s}
	return []route{
		{"GET", "/user/times", scopes(catUser), "T", h.listMyTimes},
		{"GET", R + "/times", scopes(catRepo), "T,IssuesEnabled", h.listRepoTimes},
		{"GET", R + "/times/{timetrackingusername}", scopes(catRepo), "T,IssuesEnabled", h.listUserRepoTimes},
		{"GET", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", h.listIssueTimes},
		{"POST", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", h.addIssueTime},
		{"DELETE", R + "/issues/{index}/times", scopes(catIssue), "IssuesOrPulls,T", h.resetIssueTimes},
		{"DELETE", R + "/issues/{index}/times/{id}", scopes(catIssue), "IssuesOrPulls,T", h.deleteIssueTime},
	}
}

// timeFilter reads user, since, before, page and limit.
func (s issueTimes) timeFilter(q *request) (issues.TimeFilter, error) {
	var f issues.TimeFilter
	var err error
	if f.ListOptions, err = s.listOptions(q.r); err != nil {
		return f, err
	}
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Before, err = queryTime(q, "before"); err != nil {
		return f, err
	}
	f.User = q.r.URL.Query().Get("user")
	return f, nil
}

// writeTimes answers a page of tracked times with their users and issues.
func (s issueTimes) writeTimes(q *request, opts ports.ListOptions, list []*issue.TrackedTime, total int64) error {
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
func (s issueTimes) toTrackedTimes(q *request, list []*issue.TrackedTime) ([]trackedTimeDTO, error) {
	views, err := s.issues.Times().Describe(q.r.Context(), q.caller, list)
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
func (s issueTimes) listIssueTimes(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Times().OfIssue(q.r.Context(), q.repo, index, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// addIssueTime answers POST R/issues/{index}/times with 200 and the time.
func (s issueTimes) addIssueTime(q *request) error {
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
	t, err := s.issues.Times().Add(q.r.Context(), q.repo, index, in)
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
func (s issueTimes) resetIssueTimes(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.Times().Reset(q.r.Context(), q.repo, index))
}

// deleteIssueTime answers DELETE R/issues/{index}/times/{id} with 204.
func (s issueTimes) deleteIssueTime(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.issues.Times().Delete(q.r.Context(), q.repo, index, id))
}

// listRepoTimes answers GET R/times.
func (s issueTimes) listRepoTimes(q *request) error {
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Times().OfRepo(q.r.Context(), q.repo, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// listUserRepoTimes answers GET R/times/{timetrackingusername}.
func (s issueTimes) listUserRepoTimes(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Times().OfUserInRepo(q.r.Context(), q.repo, q.var_("timetrackingusername"), opts)
	if err != nil {
		return err
	}
	return s.writeTimes(q, opts, list, total)
}

// listMyTimes answers GET /user/times.
func (s issueTimes) listMyTimes(q *request) error {
	f, err := s.timeFilter(q)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Times().Mine(q.r.Context(), q.caller, f)
	if err != nil {
		return err
	}
	return s.writeTimes(q, f.ListOptions, list, total)
}

// trackedTimeDTO is Gitea's TrackedTime.
type trackedTimeDTO struct {
	ID       int64     `json:"id"`
	Created  time.Time `json:"created"`
	Time     int64     `json:"time"`
	UserID   int64     `json:"user_id"`
	UserName string    `json:"user_name"`
	IssueID  int64     `json:"issue_id"`
	Issue    *issueDTO `json:"issue"`
}
