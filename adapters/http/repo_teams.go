package http

import (
	"errors"
	"net/http"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/domain/errs"
)

// repoTeams serves the teams that reach a repository, seen from the
// repository (catalogue 4.5).
type repoTeams struct{ *kernel }

// repoTeamRoutes are the rows of repoTeams.
func (s *kernel) repoTeamRoutes() []route {
	h := repoTeams{s}
	return []route{
		{"GET", R + "/teams", scopes(catRepo), "T,AR", h.listRepoTeams},
		{"GET", R + "/teams/{team}", scopes(catRepo), "T,AR", h.checkRepoTeam},
		{"PUT", R + "/teams/{team}", scopes(catRepo), "T,RA", h.addRepoTeam},
		{"DELETE", R + "/teams/{team}", scopes(catRepo), "T,RA", h.removeRepoTeam},
	}
}

// noOrg answers Gitea's 405 for team routes on a personal repository.
func (s repoTeams) noOrg(q *request, err error) error {
	if errors.Is(err, orgs.ErrNoOrg) {
		s.writeMessage(q.w, http.StatusMethodNotAllowed, orgs.ErrNoOrg.Error())
		return nil
	}
	return err
}

// listRepoTeams answers GET R/teams.
func (s repoTeams) listRepoTeams(q *request) error {
	teams, o, err := s.orgs.RepoTeams().List(q.r.Context(), q.repo)
	if err != nil {
		return s.noOrg(q, err)
	}
	q.json(http.StatusOK, s.toTeams(teams, o))
	return nil
}

// checkRepoTeam answers GET R/teams/{team}: the team when it reaches the
// repository, 404 otherwise.
func (s repoTeams) checkRepoTeam(q *request) error {
	t, o, has, err := s.orgs.RepoTeams().Get(q.r.Context(), q.repo, q.var_("team"))
	if err != nil {
		return s.noOrg(q, err)
	}
	if !has {
		return errs.NotFound("team is not added to the repository")
	}
	q.json(http.StatusOK, s.toTeam(t, o))
	return nil
}

// addRepoTeam answers PUT R/teams/{team}.
func (s repoTeams) addRepoTeam(q *request) error { return s.setRepoTeam(q, true) }

// removeRepoTeam answers DELETE R/teams/{team}.
func (s repoTeams) removeRepoTeam(q *request) error { return s.setRepoTeam(q, false) }

func (s repoTeams) setRepoTeam(q *request, give bool) error {
	if err := s.orgs.RepoTeams().Set(q.r.Context(), q.repo, q.var_("team"), give); err != nil {
		return s.noOrg(q, err)
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
