package http

import "github.com/depothq/depot/app/issues"

// linkedIssueDTOs renders issues that may live in other repositories than the
// path's (dependencies, tracked times) with the one issue renderer.
func (s *kernel) linkedIssueDTOs(q *request, list []issues.LinkedIssue) ([]issueDTO, error) {
	views, err := s.issues.LinkedViews(q.r.Context(), list)
	if err != nil {
		return nil, err
	}
	return s.issueDTOs(q.caller, views), nil
}
