package http

import (
	"sort"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
)

// orgDTO is Gitea's Organization.
type orgDTO struct {
	ID                        int64  `json:"id"`
	Name                      string `json:"name"`
	FullName                  string `json:"full_name"`
	Email                     string `json:"email"`
	AvatarURL                 string `json:"avatar_url"`
	Description               string `json:"description"`
	Website                   string `json:"website"`
	Location                  string `json:"location"`
	Visibility                string `json:"visibility"`
	RepoAdminChangeTeamAccess bool   `json:"repo_admin_change_team_access"`
	// Username is Gitea's deprecated twin of Name.
	Username string `json:"username"`
}

func (s *kernel) toOrg(o *org.Organization) orgDTO {
	return orgDTO{ID: o.ID, Name: o.Name, Username: o.Name, FullName: o.FullName, Email: o.Email,
		Description: o.Description, Website: o.Website, Location: o.Location, Visibility: string(o.Visibility),
		RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess, AvatarURL: s.accountAvatarURL(o.Avatar)}
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

func (s *kernel) toTeams(teams []*org.Team, o *org.Organization) []teamDTO {
	out := make([]teamDTO, len(teams))
	for i, t := range teams {
		out[i] = s.toTeam(t, o)
	}
	return out
}
