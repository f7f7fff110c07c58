package http

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
)

// issueCore serves the issues themselves (and pull requests as issues):
// search, list, create, get, edit and delete (catalogue 4.6, core 4.5).
type issueCore struct{ *kernel }

// issueRoutes are the rows of issueCore. Gitea's PATCH needs only a
// signed-in caller: who may change what is the use case's decision (poster
// or writer).
func (s *kernel) issueRoutes() []route {
	h := issueCore{s}
	return []route{
		{"GET", "/repos/issues/search", scopes(catIssue), "-", h.searchIssues},
		{"GET", R + "/issues", scopes(catIssue), "IssuesOrPulls", h.listIssues},
		{"POST", R + "/issues", scopes(catIssue), "IssuesOrPulls,T,NA,RR(issues),NotBlocked", h.createIssue},
		{"GET", R + "/issues/{index}", scopes(catIssue), "IssuesOrPulls", h.getIssue},
		{"PATCH", R + "/issues/{index}", scopes(catIssue), "IssuesOrPulls,T", h.editIssue},
		{"DELETE", R + "/issues/{index}", scopes(catIssue), "IssuesOrPulls,T,RA", h.deleteIssue},
	}
}

// issueIndex reads {index}: anything but a positive integer names no issue
// (404, as Gitea answers an index it cannot find).
func issueIndex(q *request) (int64, error) {
	n, err := strconv.ParseInt(q.var_("index"), 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.NotFound("issue does not exist")
	}
	return n, nil
}

// splitList splits a comma-separated parameter.
func splitList(v string) []string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// issueFilter reads the filter parameters both issue listings take: state,
// type, labels, milestones, q, since and before.
func issueFilter(q *request) (issues.Filter, error) {
	var f issues.Filter
	var err error
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	if f.Before, err = queryTime(q, "before"); err != nil {
		return f, err
	}
	v := q.r.URL.Query()
	f.State, f.Type, f.Keyword = v.Get("state"), v.Get("type"), strings.TrimSpace(v.Get("q"))
	f.Labels, f.Milestones = splitList(v.Get("labels")), splitList(v.Get("milestones"))
	return f, nil
}

// listIssues answers GET R/issues with one page and the paging headers.
func (s issueCore) listIssues(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	f, err := issueFilter(q)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	in := issues.ListInput{Filter: f, ListOptions: opts,
		CreatedBy: v.Get("created_by"), AssignedBy: v.Get("assigned_by"), MentionedBy: v.Get("mentioned_by")}
	views, total, err := s.issues.Issues().List(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	s.writeIssues(q, http.StatusOK, views)
	return nil
}

// searchIssues answers GET /repos/issues/search: the issues of every
// repository the caller may read.
func (s issueCore) searchIssues(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	f, err := issueFilter(q)
	if err != nil {
		return err
	}
	in := issues.SearchInput{Filter: f, ListOptions: opts}
	v := q.r.URL.Query()
	in.Owner, in.Team = v.Get("owner"), v.Get("team")
	if p := v.Get("priority_repo_id"); p != "" {
		if in.PriorityRepoID, err = strconv.ParseInt(p, 10, 64); err != nil {
			return errs.BadRequest("priority_repo_id: must be an integer")
		}
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"assigned", &in.Assigned}, {"created", &in.Created}, {"mentioned", &in.Mentioned}} {
		if b := v.Get(f.name); b != "" {
			if *f.dst, err = strconv.ParseBool(b); err != nil {
				return errs.BadRequest(f.name + ": must be a boolean")
			}
		}
	}
	views, total, err := s.issues.Issues().Search(q.r.Context(), q.caller, in)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	s.writeIssues(q, http.StatusOK, views)
	return nil
}

// createIssueOption is Gitea's CreateIssueOption.
type createIssueOption struct {
	Title     string     `json:"title"`
	Body      string     `json:"body"`
	Ref       string     `json:"ref"`
	Assignee  string     `json:"assignee"`
	Assignees []string   `json:"assignees"`
	Deadline  *time.Time `json:"due_date"`
	Milestone int64      `json:"milestone"`
	Labels    []int64    `json:"labels"`
	Closed    bool       `json:"closed"`
}

// createIssue answers POST R/issues with 201 and the issue.
func (s issueCore) createIssue(q *request) error {
	var in createIssueOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	v, err := s.issues.Issues().Create(q.r.Context(), q.repo, issues.CreateInput{Title: in.Title, Body: in.Body, Ref: in.Ref,
		Assignee: in.Assignee, Assignees: in.Assignees, Milestone: in.Milestone, Labels: in.Labels,
		Closed: in.Closed, Deadline: in.Deadline})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.issueDTO(q.caller, v))
	return nil
}

// getIssue answers GET R/issues/{index}.
func (s issueCore) getIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	v, err := s.issues.Issues().Get(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	q.lastModified(v.Issue.UpdatedAt)
	q.json(http.StatusOK, s.issueDTO(q.caller, v))
	return nil
}

// editIssueOption is Gitea's EditIssueOption. Assignees is a pointer so
// that an empty list (clear them) differs from none given.
type editIssueOption struct {
	Title          string     `json:"title"`
	Body           *string    `json:"body"`
	Ref            *string    `json:"ref"`
	Assignee       *string    `json:"assignee"`
	Assignees      *[]string  `json:"assignees"`
	Milestone      *int64     `json:"milestone"`
	State          *string    `json:"state"`
	Deadline       *time.Time `json:"due_date"`
	RemoveDeadline *bool      `json:"unset_due_date"`
}

// editIssue answers PATCH R/issues/{index} with 200 and the issue (the
// spec's status; Gitea answers 201).
func (s issueCore) editIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var in editIssueOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	v, err := s.issues.Issues().Edit(q.r.Context(), q.repo, index, issues.EditInput{Title: in.Title, Body: in.Body, Ref: in.Ref,
		Assignee: in.Assignee, Assignees: in.Assignees, Milestone: in.Milestone, State: in.State,
		Deadline: in.Deadline, RemoveDeadline: in.RemoveDeadline})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.issueDTO(q.caller, v))
	return nil
}

// deleteIssue answers DELETE R/issues/{index} with 204.
func (s issueCore) deleteIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	if err := s.issues.Issues().Delete(q.r.Context(), q.repo, index); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
