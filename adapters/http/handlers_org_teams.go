package http

import (
	"net/http"
	"sort"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
)

// orgTeamRoutes are the team rows of the catalogue built so far: creating a
// team, reading it, its members, and giving it a repository.
func (s *kernel) orgTeamRoutes() []route {
	return []route{
		{"POST", "/orgs/{org}/teams", scopes(catOrg), "T,OM,OO", s.createTeam},
		{"GET", "/teams/{teamid}", scopes(catOrg), "T,TM", s.getTeam},
		{"GET", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM", s.getTeamMember},
		{"PUT", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM,OO", s.addTeamMember},
		{"DELETE", "/teams/{teamid}/members/{username}", scopes(catOrg), "T,TM,OO", s.removeTeamMember},
		{"PUT", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", s.addTeamRepo},
		{"GET", "/user/teams", scopes(catUser), "T", s.listMyTeams},
		{"GET", "/orgs/{org}/teams", scopes(catOrg), "T,OM", s.listTeams},
		{"GET", "/orgs/{org}/teams/search", scopes(catOrg), "T,OM", s.searchTeams},
		{"PATCH", "/teams/{teamid}", scopes(catOrg), "T,OO,TM", s.editTeam},
		{"DELETE", "/teams/{teamid}", scopes(catOrg), "T,OO,TM", s.deleteTeam},
		{"GET", "/teams/{teamid}/members", scopes(catOrg), "T,TM", s.listTeamMembers},
		{"GET", "/teams/{teamid}/repos", scopes(catOrg), "T,TM", s.listTeamRepos},
		{"GET", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", s.getTeamRepo},
		{"DELETE", "/teams/{teamid}/repos/{org}/{reponame}", scopes(catOrg), "T,TM", s.removeTeamRepo},
		{"GET", R + "/teams", scopes(catRepo), "T,AR", s.listRepoTeams},
		{"GET", R + "/teams/{team}", scopes(catRepo), "T,AR", s.checkRepoTeam},
		{"PUT", R + "/teams/{team}", scopes(catRepo), "T,RA", s.addRepoTeam},
		{"DELETE", R + "/teams/{team}", scopes(catRepo), "T,RA", s.removeRepoTeam},
	}
}

// teamDTO is Gitea's Team.
type teamDTO struct {
	ID                      int64             `json:"id"`
	Name                    string            `json:"name"`
	Description             string            `json:"description"`
	Organization            *orgDTO           `json:"organization"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
}

func (s *kernel) toTeam(t *org.Team, o *org.Organization) teamDTO {
	d := teamDTO{ID: t.ID, Name: t.Name, Description: t.Description, IncludesAllRepositories: t.IncludesAllRepositories,
		Permission: t.Mode.String(), CanCreateOrgRepo: t.CanCreateOrgRepo, Units: []string{}, UnitsMap: map[string]string{}}
	if o != nil {
		od := s.toOrg(o)
		d.Organization = &od
	}
	for u, m := range t.Units {
		d.UnitsMap[string(u)] = m.String()
		if m > permission.ModeNone {
			d.Units = append(d.Units, string(u))
		}
	}
	sort.Strings(d.Units)
	return d
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
func (s *kernel) createTeam(q *request) error {
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
func (s *kernel) getTeam(q *request) error {
	q.json(http.StatusOK, s.toTeam(q.team.Team, q.team.Org.Org))
	return nil
}

// getTeamMember answers GET /teams/{teamid}/members/{username}: the user
// when in the team, 404 otherwise.
func (s *kernel) getTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Check(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUser(q.caller, q.subject))
	return nil
}

// addTeamMember answers PUT /teams/{teamid}/members/{username}.
func (s *kernel) addTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Add(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeTeamMember answers DELETE /teams/{teamid}/members/{username}; the
// Owners team keeps its last member (409).
func (s *kernel) removeTeamMember(q *request) error {
	if err := s.orgs.TeamMembers().Remove(q.r.Context(), q.team, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// addTeamRepo answers PUT /teams/{teamid}/repos/{org}/{reponame}: the
// caller must administer the repository.
func (s *kernel) addTeamRepo(q *request) error {
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
