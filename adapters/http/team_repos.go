package http

import (
	"net/http"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
)

// teamRepos serves the repositories a team reaches, seen from the team
// (catalogue 4.8).
type teamRepos struct{ *kernel }

// teamRepoRoutes are the rows of teamRepos.
func (s *kernel) teamRepoRoutes() []route {
	h := teamRepos{s}
	return []route{
		{"PUT", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", h.addTeamRepo},
		{"GET", "/teams/{teamid}/repos", scopes(catOrg), "T,TM", h.listTeamRepos},
		{"GET", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", h.getTeamRepo},
		{"DELETE", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", h.removeTeamRepo},
	}
}

// addTeamRepo answers PUT /teams/{teamid}/repos/{org}/{reponame}: the
// caller must administer the repository.
func (s teamRepos) addTeamRepo(q *request) error {
	a, err := s.repos.Open(q.r.Context(), q.caller, q.org.Org.Name, q.var_("reponame"))
	if err != nil {
		return err
	}
	if q.org.Org.ID != q.team.Team.OrgID {
		return errs.NotFound("repository does not exist")
	}
	if err := s.orgs.TeamRepos().Add(q.r.Context(), q.team, a); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// listTeamRepos answers GET /teams/{teamid}/repos.
func (s teamRepos) listTeamRepos(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.TeamRepos().List(q.r.Context(), q.team, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// teamRepo opens the repository {org}/{reponame} of a team route.
func (s teamRepos) teamRepo(q *request) (*repos.Access, error) {
	return s.repos.Open(q.r.Context(), q.caller, q.org.Org.Name, q.var_("reponame"))
}

// getTeamRepo answers GET /teams/{teamid}/repos/{org}/{reponame}: the
// repository when the team reaches it, 404 otherwise.
func (s teamRepos) getTeamRepo(q *request) error {
	a, err := s.teamRepo(q)
	if err != nil {
		return err
	}
	if err := s.orgs.TeamRepos().Check(q.r.Context(), q.team, a); err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusOK, a.Repo.ID)
}

// removeTeamRepo answers DELETE /teams/{teamid}/repos/{org}/{reponame}.
func (s teamRepos) removeTeamRepo(q *request) error {
	a, err := s.teamRepo(q)
	if err != nil {
		return err
	}
	if err := s.orgs.TeamRepos().Remove(q.r.Context(), q.team, a); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
