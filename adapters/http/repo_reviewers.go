package http

import (
	"net/http"
)

// repoReviewers serves who may be asked to review a repository's pull
// requests (catalogue 4.5).
type repoReviewers struct{ *kernel }

// repoReviewerRoutes are the rows of repoReviewers.
func (s *kernel) repoReviewerRoutes() []route {
	h := repoReviewers{s}
	return []route{
		{"GET", R + "/reviewers", scopes(catRepo), "T,AR", h.listReviewers},
	}
}

// listReviewers answers GET R/reviewers.
func (s repoReviewers) listReviewers(q *request) error {
	list, err := s.repos.Reviewers().List(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}
