package http

import (
	"net/http"
)

// adminRepos serves 4.9's repository row: a site admin creates a
// repository for an account (a user or, as Gitea allows, an organisation).
type adminRepos struct{ *kernel }

// adminRepoRoutes are the rows of adminRepos.
func (s *kernel) adminRepoRoutes() []route {
	h := adminRepos{s}
	return []route{
		{"POST", "/admin/users/{username}/repos", scopes(catAdmin), "T,SA", h.adminCreateRepo},
	}
}

// adminCreateRepo answers POST /admin/users/{username}/repos with the
// repository creation use case, owned by the path's account: 404 when it
// is absent (the middleware), 409 for a taken name, 422 for a bad body.
func (s adminRepos) adminCreateRepo(q *request) error {
	in, err := decodeCreateRepo(q)
	if err != nil {
		return err
	}
	r, err := s.repos.Create(q.r.Context(), q.caller, q.subject, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusCreated, r.ID)
}
