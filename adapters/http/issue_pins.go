package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
)

// issuePins serves the pinned issues and pull requests of a repository
// (catalogue 4.5 and 4.6).
type issuePins struct{ *kernel }

// issuePinRoutes are the rows of issuePins. R/issues/pinned must stay
// before the R/issues/{index} rows of the route table.
func (s *kernel) issuePinRoutes() []route {
	h := issuePins{s}
	return []route{
		{"GET", R + "/new_pin_allowed", scopes(catRepo), "-", h.newPinAllowed},
		{"GET", R + "/issues/pinned", scopes(catIssue), "IssuesOrPulls,RR(issues)", h.listPinnedIssues},
		{"POST", R + "/issues/{index}/pin", scopes(catIssue), "IssuesOrPulls,T,RA", h.pinIssue},
		{"DELETE", R + "/issues/{index}/pin", scopes(catIssue), "IssuesOrPulls,T,RA", h.unpinIssue},
		{"PATCH", R + "/issues/{index}/pin/{position}", scopes(catIssue), "IssuesOrPulls,T,RA", h.moveIssuePin},
	}
}

// pinIssue answers POST R/issues/{index}/pin with 204.
func (s issuePins) pinIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.Pins().Pin(q.r.Context(), q.repo, index))
}

// unpinIssue answers DELETE R/issues/{index}/pin with 204.
func (s issuePins) unpinIssue(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.Pins().Unpin(q.r.Context(), q.repo, index))
}

// moveIssuePin answers PATCH R/issues/{index}/pin/{position} with 204.
func (s issuePins) moveIssuePin(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	pos, err := strconv.Atoi(q.var_("position"))
	if err != nil {
		return errs.BadRequest("position: must be an integer")
	}
	return noContent(q, s.issues.Pins().Move(q.r.Context(), q.repo, index, pos))
}

// listPinnedIssues answers GET R/issues/pinned with the pinned issues in
// pin order.
func (s issuePins) listPinnedIssues(q *request) error {
	list, err := s.issues.Pins().List(q.r.Context(), q.repo, false)
	if err != nil {
		return err
	}
	linked := make([]issues.LinkedIssue, len(list))
	for i, is := range list {
		linked[i] = issues.LinkedIssue{Issue: is, Repo: q.repo.Repo}
	}
	out, err := s.linkedIssueDTOs(q, linked)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out)
	return nil
}

// newPinAllowed answers GET R/new_pin_allowed.
func (s issuePins) newPinAllowed(q *request) error {
	is, pulls, err := s.issues.Pins().NewAllowed(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, pinsAllowedDTO{Issues: is, PullRequests: pulls})
	return nil
}

// pinsAllowedDTO is Gitea's NewIssuePinsAllowed.
type pinsAllowedDTO struct {
	Issues       bool `json:"issues"`
	PullRequests bool `json:"pull_requests"`
}
