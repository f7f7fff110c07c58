package http

import (
	"context"
	"net/http"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/ports"
)

// issueDependencies serves the dependencies between issues: the issues one
// depends on and the issues it blocks (catalogue 4.6).
type issueDependencies struct{ *kernel }

// issueDependencyRoutes are the rows of issueDependencies.
func (s *kernel) issueDependencyRoutes() []route {
	h := issueDependencies{s}
	return []route{
		{"GET", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls", h.listIssueDependencies},
		{"POST", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls,T,NA", h.issueDependency(false, true)},
		{"DELETE", R + "/issues/{index}/dependencies", scopes(catIssue), "IssuesOrPulls,T,NA", h.issueDependency(false, false)},
		{"GET", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls", h.listIssueBlocks},
		{"POST", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls,T", h.issueDependency(true, true)},
		{"DELETE", R + "/issues/{index}/blocks", scopes(catIssue), "IssuesOrPulls,T", h.issueDependency(true, false)},
	}
}

// listIssueDependencies answers GET R/issues/{index}/dependencies.
func (s issueDependencies) listIssueDependencies(q *request) error {
	return s.linkedIssues(q, s.issues.Dependencies().List)
}

// listIssueBlocks answers GET R/issues/{index}/blocks.
func (s issueDependencies) listIssueBlocks(q *request) error {
	return s.linkedIssues(q, s.issues.Dependencies().Blocks)
}

func (s issueDependencies) linkedIssues(q *request, list func(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) ([]issues.LinkedIssue, error)) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	linked, err := list(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	out, err := s.linkedIssueDTOs(q, linked)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out)
	return nil
}

// issueDependency answers POST and DELETE of R/issues/{index}/dependencies
// (blocks false) and R/issues/{index}/blocks (blocks true) with the path's
// issue: 201 when added, 200 when removed.
func (s issueDependencies) issueDependency(blocks, add bool) handler {
	return func(q *request) error {
		index, err := issueIndex(q)
		if err != nil {
			return err
		}
		var b struct {
			Owner string `json:"owner"`
			Repo  string `json:"repo"`
			Index int64  `json:"index"`
		}
		if err := decodeJSON(q.r, &b); err != nil {
			return err
		}
		ref := issues.IssueRef{Owner: b.Owner, Repo: b.Repo, Index: b.Index}
		i, err := s.issues.Dependencies().Change(q.r.Context(), q.repo, index, ref, blocks, add)
		if err != nil {
			return err
		}
		out, err := s.linkedIssueDTOs(q, []issues.LinkedIssue{{Issue: i, Repo: q.repo.Repo}})
		if err != nil {
			return err
		}
		status := http.StatusOK
		if add {
			status = http.StatusCreated
		}
		q.json(status, out[0])
		return nil
	}
}
