package http

import (
	"errors"
	"net/http"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
)

// listMyTeams answers GET /user/teams: the caller's teams in every
// organisation, each with its organisation.
func (s *kernel) listMyTeams(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	teams, byID, total, err := s.orgs.Teams().Mine(q.r.Context(), q.caller, opts)
	if err != nil {
		return err
	}
	out := make([]teamDTO, len(teams))
	for i, t := range teams {
		out[i] = s.toTeam(t, byID[t.OrgID])
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// listTeams answers GET /orgs/{org}/teams.
func (s *kernel) listTeams(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	teams, total, err := s.orgs.Teams().List(q.r.Context(), q.org, "", false, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toTeams(teams, q.org.Org))
	return nil
}

// teamSearchDTO is Gitea's answer to a team search.
type teamSearchDTO struct {
	Data []teamDTO `json:"data"`
	OK   bool      `json:"ok"`
}

// searchTeams answers GET /orgs/{org}/teams/search: q matches the name and,
// unless include_desc is false, the description.
func (s *kernel) searchTeams(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	includeDesc := true
	if b, err := queryBool(q, "include_desc"); err != nil {
		return err
	} else if b != nil {
		includeDesc = *b
	}
	teams, total, err := s.orgs.Teams().List(q.r.Context(), q.org, q.r.URL.Query().Get("q"), includeDesc, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, teamSearchDTO{Data: s.toTeams(teams, q.org.Org), OK: true})
	return nil
}

func (s *kernel) toTeams(teams []*org.Team, o *org.Organization) []teamDTO {
	out := make([]teamDTO, len(teams))
	for i, t := range teams {
		out[i] = s.toTeam(t, o)
	}
	return out
}

// editTeamBody is Gitea's EditTeamOption.
type editTeamBody struct {
	Name                    string            `json:"name"`
	Description             *string           `json:"description"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	IncludesAllRepositories *bool             `json:"includes_all_repositories"`
	CanCreateOrgRepo        *bool             `json:"can_create_org_repo"`
}

// editTeam answers PATCH /teams/{teamid}.
func (s *kernel) editTeam(q *request) error {
	var b editTeamBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	t, err := s.orgs.Teams().Edit(q.r.Context(), q.team, orgs.EditTeamInput{Name: b.Name, Description: b.Description,
		Permission: b.Permission, Units: b.Units, UnitsMap: b.UnitsMap,
		IncludesAllRepositories: b.IncludesAllRepositories, CanCreateOrgRepo: b.CanCreateOrgRepo})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toTeam(t, q.team.Org.Org))
	return nil
}

// deleteTeam answers DELETE /teams/{teamid}; the Owners team stays (422).
func (s *kernel) deleteTeam(q *request) error {
	if err := s.orgs.Teams().Delete(q.r.Context(), q.team); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// listTeamMembers answers GET /teams/{teamid}/members.
func (s *kernel) listTeamMembers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.TeamMembers().List(q.r.Context(), q.team, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// listTeamRepos answers GET /teams/{teamid}/repos.
func (s *kernel) listTeamRepos(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.TeamRepos().List(q.r.Context(), q.team, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// teamRepo opens the repository {org}/{reponame} of a team route.
func (s *kernel) teamRepo(q *request) (*repos.Access, error) {
	return s.repos.Open(q.r.Context(), q.caller, q.org.Org.Name, q.var_("reponame"))
}

// getTeamRepo answers GET /teams/{teamid}/repos/{org}/{reponame}: the
// repository when the team reaches it, 404 otherwise.
func (s *kernel) getTeamRepo(q *request) error {
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
func (s *kernel) removeTeamRepo(q *request) error {
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

// noOrg answers Gitea's 405 for team routes on a personal repository.
func (s *kernel) noOrg(q *request, err error) error {
	if errors.Is(err, orgs.ErrNoOrg) {
		s.writeMessage(q.w, http.StatusMethodNotAllowed, orgs.ErrNoOrg.Error())
		return nil
	}
	return err
}

// listRepoTeams answers GET R/teams.
func (s *kernel) listRepoTeams(q *request) error {
	teams, o, err := s.orgs.RepoTeams().List(q.r.Context(), q.repo)
	if err != nil {
		return s.noOrg(q, err)
	}
	q.json(http.StatusOK, s.toTeams(teams, o))
	return nil
}

// checkRepoTeam answers GET R/teams/{team}: the team when it reaches the
// repository, 404 otherwise.
func (s *kernel) checkRepoTeam(q *request) error {
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
func (s *kernel) addRepoTeam(q *request) error { return s.setRepoTeam(q, true) }

// removeRepoTeam answers DELETE R/teams/{team}.
func (s *kernel) removeRepoTeam(q *request) error { return s.setRepoTeam(q, false) }

func (s *kernel) setRepoTeam(q *request, give bool) error {
	if err := s.orgs.RepoTeams().Set(q.r.Context(), q.repo, q.var_("team"), give); err != nil {
		return s.noOrg(q, err)
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
