package http

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

const catOrg = token.CategoryOrganization

// orgRoutes are the organisation rows of the catalogue (4.8, with 4.1's
// deprecated /org/{org}/repos and 4.9's admin rows). Routes naming {org}
// resolve it first (orgs.Service.Open: 404 when absent or hidden), so OO and
// OM are checked against the caller's membership.
func (s *kernel) orgRoutes() []route {
	return append([]route{
		{"GET", "/user/orgs", scopes(catUser, catOrg), "T", s.listMyOrgs},
		{"GET", "/users/{username}/orgs", scopes(catOrg), "T", s.listUserOrgs},
		{"GET", "/users/{username}/orgs/{org}/permissions", scopes(catOrg), "T", s.getOrgPermissions},
		{"POST", "/orgs", scopes(catOrg), "T", s.createOrg},
		{"GET", "/orgs", scopes(catOrg), "-", s.listOrgs},
		{"GET", "/orgs/{org}", scopes(catOrg), "-", s.getOrg},
		{"PATCH", "/orgs/{org}", scopes(catOrg), "T,OO", s.editOrg},
		{"DELETE", "/orgs/{org}", scopes(catOrg), "T,OO", s.deleteOrg},
		{"POST", "/orgs/{org}/rename", scopes(catOrg), "T,OO", s.renameOrg},
		{"GET", "/orgs/{org}/repos", scopes(catOrg), "-", s.listOrgRepos},
		{"POST", "/orgs/{org}/repos", scopes(catOrg), "T", s.createOrgRepo},
		{"POST", "/org/{org}/repos", scopes(catOrg, catRepo), "T", s.createOrgRepo},
		{"GET", "/orgs/{org}/members", scopes(catOrg), "T", s.listOrgMembers},
		{"GET", "/orgs/{org}/members/{username}", scopes(catOrg), "T", s.checkOrgMember},
		{"DELETE", "/orgs/{org}/members/{username}", scopes(catOrg), "T,OO", s.removeOrgMember},
		{"GET", "/orgs/{org}/public_members", scopes(catOrg), "-", s.listOrgPublicMembers},
		{"GET", "/orgs/{org}/public_members/{username}", scopes(catOrg), "-", s.checkOrgPublicMember},
		{"PUT", "/orgs/{org}/public_members/{username}", scopes(catOrg), "T,OM", s.publicizeOrgMember},
		{"DELETE", "/orgs/{org}/public_members/{username}", scopes(catOrg), "T,OM", s.concealOrgMember},

		{"GET", "/admin/orgs", scopes(catAdmin), "T,SA", s.adminListOrgs},
		{"GET", "/admin/users/{username}/orgs", scopes(catAdmin), "T,SA", s.adminListUserOrgs},
		{"POST", "/admin/users/{username}/orgs", scopes(catAdmin), "T,SA", s.adminCreateOrg},
	}, s.orgTeamRoutes()...)
}

// resolveOrg loads the team ({teamid}) and the organisation ({org}) the
// path names, with the caller's ties to them (404 when absent or hidden),
// and applies the public-only token rule to the organisation.
func (s *kernel) resolveOrg(q *request, c *compiledRoute) error {
	if v, ok := q.vars["teamid"]; ok {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return errs.BadRequest("teamid: must be a positive integer")
		}
		if q.team, err = s.orgs.OpenTeam(q.r.Context(), q.caller, id); err != nil {
			return err
		}
		if err := checkOrgPublicOnly(q, c, q.team.Org); err != nil {
			return err
		}
	}
	name, ok := q.vars["org"]
	if !ok {
		return nil
	}
	a, err := s.orgs.Open(q.r.Context(), q.caller, name)
	if err != nil {
		return err
	}
	q.org = a
	return checkOrgPublicOnly(q, c, a)
}

func checkOrgPublicOnly(q *request, c *compiledRoute, a *orgs.Access) error {
	return permission.CheckPublicOnly(q.caller.Actor(), c.scopes,
		permission.PublicTarget{OrgNotPublic: a.Org.Visibility != user.VisibilityPublic})
}

// orgFacts relates the caller to the path's organisation for OO and OM, and
// to the path's team for TM. On team routes the team's organisation counts,
// and OO and OM answer 404 so as not to reveal the team.
func orgFacts(q *request, f *permission.Facts) {
	switch {
	case q.team != nil:
		m := q.team.Org.Membership
		f.IsOrgOwner, f.IsOrgMember, f.IsTeamMember, f.TeamRoute = m.IsOwner, m.IsMember, q.team.IsMember, true
	case q.org != nil:
		f.IsOrgOwner, f.IsOrgMember = q.org.Membership.IsOwner, q.org.Membership.IsMember
	}
}

// listMyOrgs answers GET /user/orgs: every organisation the caller belongs to.
func (s *kernel) listMyOrgs(q *request) error {
	return s.listOrgsOf(q, q.caller.User)
}

// listUserOrgs answers GET /users/{username}/orgs.
func (s *kernel) listUserOrgs(q *request) error {
	if !user.CanSee(users.Viewer(q.caller), q.subject) {
		return errs.NotFound("user does not exist")
	}
	return s.listOrgsOf(q, q.subject)
}

func (s *kernel) listOrgsOf(q *request, u *user.User) error {
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
func (s *kernel) getOrgPermissions(q *request) error {
	p, err := s.orgs.PermissionsOf(q.r.Context(), q.org, q.subject)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toOrgPermissions(p))
	return nil
}

// createOrg answers POST /orgs: the caller becomes the owner.
func (s *kernel) createOrg(q *request) error {
	return s.createOrgFor(q, q.caller.User)
}

// adminCreateOrg answers POST /admin/users/{username}/orgs.
func (s *kernel) adminCreateOrg(q *request) error {
	return s.createOrgFor(q, q.subject)
}

func (s *kernel) createOrgFor(q *request, owner *user.User) error {
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
func (s *kernel) listOrgs(q *request) error {
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
func (s *kernel) adminListOrgs(q *request) error {
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
func (s *kernel) adminListUserOrgs(q *request) error {
	return s.listOrgsOf(q, q.subject)
}

// getOrg answers GET /orgs/{org}.
func (s *kernel) getOrg(q *request) error {
	q.json(http.StatusOK, s.toOrg(q.org.Org))
	return nil
}

// editOrg answers PATCH /orgs/{org}. As in Gitea, an empty e-mail or
// visibility keeps the current one; the other texts are replaced.
func (s *kernel) editOrg(q *request) error {
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
func (s *kernel) deleteOrg(q *request) error {
	if err := s.orgs.Delete(q.r.Context(), q.org); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// renameOrg answers POST /orgs/{org}/rename.
func (s *kernel) renameOrg(q *request) error {
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

// listOrgRepos answers GET /orgs/{org}/repos: the organisation's
// repositories the caller may see (team members see the private ones their
// teams reach).
func (s *kernel) listOrgRepos(q *request) error {
	return s.listOwnedRepos(q, &q.org.Org.User, false)
}

// createOrgRepo answers POST /orgs/{org}/repos and the deprecated POST
// /org/{org}/repos: owners and members of a team allowed to create
// repositories may.
func (s *kernel) createOrgRepo(q *request) error {
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

// listOrgMembers answers GET /orgs/{org}/members: all members to members
// and site admins, the public ones to other callers.
func (s *kernel) listOrgMembers(q *request) error { return s.listMembers(q, false) }

// listOrgPublicMembers answers GET /orgs/{org}/public_members.
func (s *kernel) listOrgPublicMembers(q *request) error { return s.listMembers(q, true) }

func (s *kernel) listMembers(q *request, publicOnly bool) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.orgs.Members().List(q.r.Context(), q.org, publicOnly, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}

// checkOrgMember answers GET /orgs/{org}/members/{username}: 204 or 404 to
// members (and site admins); other callers are sent to the public
// membership check, as Gitea does.
func (s *kernel) checkOrgMember(q *request) error {
	if !q.org.CanSeeAllMembers() && q.caller.UserID() != q.subject.ID {
		http.Redirect(q.w, q.r, s.baseURL+apiPrefix+"/orgs/"+url.PathEscape(q.org.Org.Name)+"/public_members/"+
			url.PathEscape(q.subject.Name), http.StatusFound)
		return nil
	}
	return s.answerMembership(q, false)
}

// checkOrgPublicMember answers GET /orgs/{org}/public_members/{username}.
func (s *kernel) checkOrgPublicMember(q *request) error { return s.answerMembership(q, true) }

func (s *kernel) answerMembership(q *request, publicOnly bool) error {
	if err := s.orgs.Members().Check(q.r.Context(), q.org, q.subject, publicOnly); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeOrgMember answers DELETE /orgs/{org}/members/{username}; the last
// owner stays (409).
func (s *kernel) removeOrgMember(q *request) error {
	if err := s.orgs.Members().Remove(q.r.Context(), q.org, q.subject); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// publicizeOrgMember answers PUT /orgs/{org}/public_members/{username}.
func (s *kernel) publicizeOrgMember(q *request) error { return s.setPublicMember(q, true) }

// concealOrgMember answers DELETE /orgs/{org}/public_members/{username}.
func (s *kernel) concealOrgMember(q *request) error { return s.setPublicMember(q, false) }

func (s *kernel) setPublicMember(q *request, public bool) error {
	if err := s.orgs.Members().SetPublic(q.r.Context(), q.org, q.subject, public); err != nil {
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
