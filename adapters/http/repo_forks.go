package http

import (
	"net/http"

	"github.com/depothq/depot/app/repos"
)

// repoForks serves the forks of repositories (catalogue 4.5).
type repoForks struct{ *kernel }

// repoForkRoutes are the rows of repoForks.
func (s *kernel) repoForkRoutes() []route {
	h := repoForks{s}
	return []route{
		{"GET", R + "/forks", scopes(catRepo), "-", h.listForks},
		{"POST", R + "/forks", scopes(catRepo), "T,RR(code),NotBlocked", h.createFork},
	}
}

// listForks answers GET R/forks.
func (s repoForks) listForks(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Forks().List(q.r.Context(), q.repo, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// createFork answers POST R/forks with 202 and the fork.
func (s repoForks) createFork(q *request) error {
	var b struct {
		Organization *string `json:"organization"`
		Name         *string `json:"name"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := repos.ForkInput{}
	if b.Organization != nil {
		in.Organization = *b.Organization
	}
	if b.Name != nil {
		in.Name = *b.Name
	}
	r, err := s.repos.Forks().Create(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusAccepted, r.ID)
}
