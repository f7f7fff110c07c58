package http

import (
	"net/http"
)

// repoAssignees serves who may be assigned a repository's issues (catalogue 4.5).
type repoAssignees struct{ *kernel }

// repoAssigneeRoutes are the rows of repoAssignees.
func (s *kernel) repoAssigneeRoutes() []route {
	h := repoAssignees{s}
	return []route{
		{"GET", R + "/assignees", scopes(catRepo), "T,AR", h.listAssignees},
	}
}

// listAssignees answers GET R/assignees.
func (s repoAssignees) listAssignees(q *request) error {
	list, err := s.repos.Assignees().List(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}
