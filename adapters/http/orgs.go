package http

import (
	"net/http"
	"strings"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/user"
)

// organizations serves organisations themselves: creating, listing,
// reading, editing, renaming and deleting them, an account's
// organisations and its permissions in one (catalogue 4.8), and a site
// admin's listing and creation (4.9).
type organizations struct{ *kernel }

// orgRoutes are the organisation rows of the catalogue (4.8). Routes naming
// {org} resolve it first (orgs.Service.Open: 404 when absent or hidden), so
// OO and OM are checked against the caller's membership.
func (s *kernel) orgRoutes() []route {
	h := organizations{s}
	return []route{
		{"GET", "/user/orgs", scopes(catUser, catOrg), "T", h.listMyOrgs},
		{"GET", "/users/{username}/orgs", scopes(catOrg), "T", h.listUserOrgs},
		{"GET", "/users/{username}/orgs/{org}/permissions", scopes(catOrg), "T", h.getOrgPermissions},
		{"POST", "/orgs", scopes(catOrg), "T", h.createOrg},
		{"GET", "/orgs", scopes(catOrg), "-", h.listOrgs},
		{"GET", "/orgs/{org}", scopes(catOrg), "-", h.getOrg},
		{"PATCH", "/orgs/{org}", scopes(catOrg), "T,OO", h.editOrg},
		{"DELETE", "/orgs/{org}", scopes(catOrg), "T,OO", h.deleteOrg},
		{"POST", "/orgs/{org}/rename", scopes(catOrg), "T,OO", h.renameOrg},
	}
}

// adminOrgRoutes are 4.9's organisation rows, served by organizations.
func (s *kernel) adminOrgRoutes() []route {
	h := organizations{s}
	return []route{
		{"GET", "/admin/orgs", scopes(catAdmin), "T,SA", h.adminListOrgs},
		{"GET", "/admin/users/{username}/orgs", scopes(catAdmin), "T,SA", h.adminListUserOrgs},
		{"POST", "/admin/users/{username}/orgs", scopes(catAdmin), "T,SA", h.adminCreateOrg},
	}
}

// listMyOrgs answers GET /user/orgs: every organisation the caller belongs to.
func (s organizations) listMyOrgs(q *request) error {
	return s.listOrgsOf(q, q.caller.User)
}

// listUserOrgs answers GET /users/{username}/orgs.
func (s organizations) listUserOrgs(q *request) error {
	if !user.CanSee(users.Viewer(q.caller), q.subject) {
		return errs.NotFound("user does not exist")
	}
	return s.listOrgsOf(q, q.subject)
}

func (s organizations) listOrgsOf(q *request, u *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.ListOf(q.r.Context(), q.caller, u, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toOrgs(list))
	return nil
}

// getOrgPermissions answers GET /users/{username}/orgs/{org}/permissions.
func (s organizations) getOrgPermissions(q *request) error {
	p, err := s.orgs.PermissionsOf(q.r.Context(), q.org, q.subject)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toOrgPermissions(p))
	return nil
}

// createOrg answers POST /orgs: the caller becomes the owner.
func (s organizations) createOrg(q *request) error {
	return s.createOrgFor(q, q.caller.User)
}

// adminCreateOrg answers POST /admin/users/{username}/orgs.
func (s organizations) adminCreateOrg(q *request) error {
	return s.createOrgFor(q, q.subject)
}

func (s organizations) createOrgFor(q *request, owner *user.User) error {
	var b createOrgBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	o, err := s.orgs.Create(q.r.Context(), q.caller, owner, orgs.CreateInput{Name: b.UserName, Profile: orgProfile(b)})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toOrg(o))
	return nil
}

// listOrgs answers GET /orgs: the organisations the caller may see.
func (s organizations) listOrgs(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.List(q.r.Context(), q.caller, "", opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toOrgs(list))
	return nil
}

// adminListOrgs answers GET /admin/orgs: every organisation.
func (s organizations) adminListOrgs(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.ListAll(q.r.Context(), opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toOrgs(list))
	return nil
}

// adminListUserOrgs answers GET /admin/users/{username}/orgs: every
// organisation the user belongs to.
func (s organizations) adminListUserOrgs(q *request) error {
	return s.listOrgsOf(q, q.subject)
}

// getOrg answers GET /orgs/{org}.
func (s organizations) getOrg(q *request) error {
	q.json(http.StatusOK, s.toOrg(q.org.Org))
	return nil
}

// editOrg answers PATCH /orgs/{org}. As in Gitea, an empty e-mail or
// visibility keeps the current one; the other texts are replaced.
func (s organizations) editOrg(q *request) error {
	var b editOrgBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := orgs.EditInput{FullName: b.FullName, Description: b.Description, Website: b.Website, Location: b.Location,
		RepoAdminChangeTeamAccess: b.RepoAdminChangeTeamAccess}
	if b.Email != nil && *b.Email != "" {
		in.Email = b.Email
	}
	if b.Visibility != nil && *b.Visibility != "" {
		v := user.Visibility(*b.Visibility)
		in.Visibility = &v
	}
	o, err := s.orgs.Edit(q.r.Context(), q.org, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toOrg(o))
	return nil
}

// deleteOrg answers DELETE /orgs/{org}; 422 while it owns repositories.
func (s organizations) deleteOrg(q *request) error {
	if err := s.orgs.Delete(q.r.Context(), q.org); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// renameOrg answers POST /orgs/{org}/rename.
func (s organizations) renameOrg(q *request) error {
	var b renameOrgBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.orgs.Rename(q.r.Context(), q.org, b.NewName); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// orgProfile reads the profile fields of a CreateOrgOption.
func orgProfile(b createOrgBody) org.Profile {
	return org.Profile{FullName: strings.TrimSpace(b.FullName), Email: strings.TrimSpace(b.Email),
		Description: strings.TrimSpace(b.Description), Website: strings.TrimSpace(b.Website),
		Location: strings.TrimSpace(b.Location), Visibility: user.Visibility(b.Visibility),
		RepoAdminChangeTeamAccess: b.RepoAdminChangeTeamAccess}
}

func (s organizations) toOrgs(list []*org.Organization) []orgDTO {
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
