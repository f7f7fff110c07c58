package http

import (
	"net/http"

	"github.com/depothq/depot/app/orgs"
)

// orgTeams serves an organisation's teams: creating, listing, searching,
// reading, editing and deleting them, and the caller's own teams
// (catalogue 4.8).
type orgTeams struct{ *kernel }

// orgTeamRoutes are the rows of orgTeams.
func (s *kernel) orgTeamRoutes() []route {
	h := orgTeams{s}
	return []route{
		{"POST", "/orgs/{org}/teams", scopes(catOrg), "T,OM,OO", h.createTeam},
		{"GET", "/teams/{teamid}", scopes(catOrg), "T,TM", h.getTeam},
		{"GET", "/user/teams", scopes(catUser), "T", h.listMyTeams},
		{"GET", "/orgs/{org}/teams", scopes(catOrg), "T,OM", h.listTeams},
		{"GET", "/orgs/{org}/teams/search", scopes(catOrg), "T,OM", h.searchTeams},
		{"PATCH", "/teams/{teamid}", scopes(catOrg), "T,OO,TM", h.editTeam},
		{"DELETE", "/teams/{teamid}", scopes(catOrg), "T,OO,TM", h.deleteTeam},
	}
}

// createTeamBody is Gitea's CreateTeamOption.
type createTeamBody struct {
	Name                    string            `json:"name"`
	Description             string            `json:"description"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
}

// createTeam answers POST /orgs/{org}/teams.
func (s orgTeams) createTeam(q *request) error {
	var b createTeamBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	t, err := s.orgs.Teams().Create(q.r.Context(), q.org, orgs.TeamInput{Name: b.Name, Description: b.Description,
		Permission: b.Permission, Units: b.Units, UnitsMap: b.UnitsMap,
		IncludesAllRepositories: b.IncludesAllRepositories, CanCreateOrgRepo: b.CanCreateOrgRepo})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toTeam(t, q.org.Org))
	return nil
}

// getTeam answers GET /teams/{teamid}.
func (s orgTeams) getTeam(q *request) error {
	q.json(http.StatusOK, s.toTeam(q.team.Team, q.team.Org.Org))
	return nil
}

// listMyTeams answers GET /user/teams: the caller's teams in every
// organisation, each with its organisation.
func (s orgTeams) listMyTeams(q *request) error {
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
func (s orgTeams) listTeams(q *request) error {
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
func (s orgTeams) searchTeams(q *request) error {
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
func (s orgTeams) editTeam(q *request) error {
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
func (s orgTeams) deleteTeam(q *request) error {
	if err := s.orgs.Teams().Delete(q.r.Context(), q.team); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
