package http

import (
	"context"
	"net/http"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
)

// issueStopwatches serves the stopwatches users run on issues: the
// caller's (catalogue 4.4) and an issue's (4.6).
type issueStopwatches struct{ *kernel }

// issueStopwatchRoutes are the rows of issueStopwatches.
func (s *kernel) issueStopwatchRoutes() []route {
	h := issueStopwatches{s}
	return []route{
		{"GET", "/user/stopwatches", scopes(catUser), "T", h.listMyStopwatches},
		{"POST", R + "/issues/{index}/stopwatch/start", scopes(catIssue), "IssuesOrPulls,T", h.startStopwatch},
		{"POST", R + "/issues/{index}/stopwatch/stop", scopes(catIssue), "IssuesOrPulls,T", h.stopStopwatch},
		{"DELETE", R + "/issues/{index}/stopwatch/delete", scopes(catIssue), "IssuesOrPulls,T", h.cancelStopwatch},
	}
}

// startStopwatch answers POST R/issues/{index}/stopwatch/start with 201.
func (s issueStopwatches) startStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.Stopwatches().Start, http.StatusCreated)
}

// stopStopwatch answers POST R/issues/{index}/stopwatch/stop with 201.
func (s issueStopwatches) stopStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.Stopwatches().Stop, http.StatusCreated)
}

// cancelStopwatch answers DELETE R/issues/{index}/stopwatch/delete with 204.
func (s issueStopwatches) cancelStopwatch(q *request) error {
	return s.stopwatchAction(q, s.issues.Stopwatches().Cancel, http.StatusNoContent)
}

func (s issueStopwatches) stopwatchAction(q *request, do func(ctx context.Context, a *repos.Access, index int64) error, status int) error {
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
func (s issueStopwatches) listMyStopwatches(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Stopwatches().Mine(q.r.Context(), q.caller, opts)
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

// stopwatchDTO is Gitea's StopWatch.
type stopwatchDTO struct {
	Created       time.Time `json:"created"`
	Seconds       int64     `json:"seconds"`
	Duration      string    `json:"duration"`
	IssueIndex    int64     `json:"issue_index"`
	IssueTitle    string    `json:"issue_title"`
	RepoOwnerName string    `json:"repo_owner_name"`
	RepoName      string    `json:"repo_name"`
}
