package http

import (
	"net/http"
)

// orgRepos serves an organisation's repositories: listing them and
// creating one (catalogue 4.8, with 4.1's deprecated /org/{org}/repos).
type orgRepos struct{ *kernel }

// orgRepoRoutes are the rows of orgRepos.
func (s *kernel) orgRepoRoutes() []route {
	h := orgRepos{s}
	return []route{
		{"GET", "/orgs/{org}/repos", scopes(catOrg), "-", h.listOrgRepos},
		{"POST", "/orgs/{org}/repos", scopes(catOrg), "T", h.createOrgRepo},
		{"POST", "/org/{org}/repos", scopes(catOrg, catRepo), "T", h.createOrgRepo},
	}
}

// listOrgRepos answers GET /orgs/{org}/repos: the organisation's
// repositories the caller may see (team members see the private ones their
// teams reach).
func (s orgRepos) listOrgRepos(q *request) error {
	return s.listOwnedRepos(q, &q.org.Org.User, false)
}

// createOrgRepo answers POST /orgs/{org}/repos and the deprecated POST
// /org/{org}/repos: owners and members of a team allowed to create
// repositories may.
func (s orgRepos) createOrgRepo(q *request) error {
	in, err := decodeCreateRepo(q)
	if err != nil {
		return err
	}
	r, err := s.orgs.CreateRepo(q.r.Context(), q.org, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusCreated, r.ID)
}
