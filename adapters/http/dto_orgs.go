package http

import (
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/domain/org"
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

func (s *kernel) toOrgs(list []*org.Organization) []orgDTO {
	out := make([]orgDTO, len(list))
	for i, o := range list {
		out[i] = s.toOrg(o)
	}
	return out
}

// createOrgBody is Gitea's CreateOrgOption.
type createOrgBody struct {
	UserName                  string `json:"username"`
	FullName                  string `json:"full_name"`
	Email                     string `json:"email"`
	Description               string `json:"description"`
	Website                   string `json:"website"`
	Location                  string `json:"location"`
	Visibility                string `json:"visibility"`
	RepoAdminChangeTeamAccess bool   `json:"repo_admin_change_team_access"`
}

// editOrgBody is Gitea's EditOrgOption; absent fields keep their value.
type editOrgBody struct {
	FullName                  *string `json:"full_name"`
	Email                     *string `json:"email"`
	Description               *string `json:"description"`
	Website                   *string `json:"website"`
	Location                  *string `json:"location"`
	Visibility                *string `json:"visibility"`
	RepoAdminChangeTeamAccess *bool   `json:"repo_admin_change_team_access"`
}

// renameOrgBody is Gitea's RenameOrgOption.
type renameOrgBody struct {
	NewName string `json:"new_name"`
}

// orgPermissionsDTO is Gitea's OrganizationPermissions.
type orgPermissionsDTO struct {
	IsOwner             bool `json:"is_owner"`
	IsAdmin             bool `json:"is_admin"`
	CanWrite            bool `json:"can_write"`
	CanRead             bool `json:"can_read"`
	CanCreateRepository bool `json:"can_create_repository"`
}

func toOrgPermissions(p orgs.Permissions) orgPermissionsDTO {
	return orgPermissionsDTO{IsOwner: p.IsOwner, IsAdmin: p.IsAdmin, CanWrite: p.CanWrite, CanRead: p.CanRead,
		CanCreateRepository: p.CanCreateRepository}
}
