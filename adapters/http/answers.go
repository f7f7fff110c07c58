package http

import (
	"net/http"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The answers several resources share: 204 without a body, a paged list
// of users or of repositories, and one repository as the caller sees it.

// noContent answers 204 when err is nil.
func noContent(q *request, err error) error {
	if err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// writeUserList answers a bare array of users with paging headers.
func (s *kernel) writeUserList(q *request, list []*user.User, total int64) {
	opts, _ := s.listOptions(q.r)
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
}

// writeRepoList answers a bare array of repositories with paging headers.
func (s *kernel) writeRepoList(q *request, opts ports.ListOptions, list []*repository.Repository, total int64, err error) error {
	if err != nil {
		return err
	}
	out, err := s.renderRepos(q.r.Context(), q.caller, list)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// answerRepo renders the repository with id as the caller now sees it.
func (s *kernel) answerRepo(q *request, status int, id int64) error {
	a, err := s.repos.OpenByID(q.r.Context(), q.caller, id)
	if err != nil {
		return err
	}
	d, err := s.renderRepo(q.r.Context(), a)
	if err != nil {
		return err
	}
	q.json(status, d)
	return nil
}
