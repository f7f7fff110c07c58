package http

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
)

// catPackage is the token scope category of the package routes.
const catPackage = token.CategoryPackage

// packageRoutesHandler serves the package management API (catalogue 4.7):
// an owner's packages, their versions and files, deletion and repository
// links. The registries that publish packages are in registry*.go.
type packageRoutesHandler struct{ *kernel }

// packageRoutes are the rows of the package management API.
func (s *kernel) packageRoutes() []route {
	h := packageRoutesHandler{s}
	const P = "/packages/{username}/{type}/{name}"
	return []route{
		{"GET", "/packages/{username}", scopes(catPackage), "PkgRead,T", h.list},
		{"GET", P + "/-/latest", scopes(catPackage), "PkgRead,T", h.latest},
		{"POST", P + "/-/link/{repo_name}", scopes(catPackage), "PkgRead,PkgWrite,T", h.link},
		{"POST", P + "/-/unlink", scopes(catPackage), "PkgRead,PkgWrite,T", h.unlink},
		{"GET", P, scopes(catPackage), "PkgRead,T", h.versions},
		{"GET", P + "/{version}", scopes(catPackage), "PkgRead,T", h.get},
		{"DELETE", P + "/{version}", scopes(catPackage), "PkgRead,PkgWrite,T", h.delete},
		{"GET", P + "/{version}/files", scopes(catPackage), "PkgRead,T", h.files},
	}
}

// packageDTO is Gitea's Package.
type packageDTO struct {
	ID         int64     `json:"id"`
	Owner      userDTO   `json:"owner"`
	Repository *repoDTO  `json:"repository"`
	Creator    *userDTO  `json:"creator"`
	Type       string    `json:"type"`
	Name       string    `json:"name"`
	Version    string    `json:"version"`
	HTMLURL    string    `json:"html_url"`
	CreatedAt  time.Time `json:"created_at"`
}

// packageFileDTO is Gitea's PackageFile.
type packageFileDTO struct {
	ID     int64  `json:"id"`
	Size   int64  `json:"Size"`
	Name   string `json:"name"`
	MD5    string `json:"md5"`
	SHA1   string `json:"sha1"`
	SHA256 string `json:"sha256"`
	SHA512 string `json:"sha512"`
}

// renderPackages renders versions; linked repositories the caller cannot
// read are left out, as Gitea's ToPackage does.
func (s *kernel) renderPackages(ctx context.Context, c auth.Caller, owner userDTO, views []apppkgs.View) ([]packageDTO, error) {
	var linked []*repository.Repository
	seen := map[int64]bool{}
	for _, v := range views {
		if v.Repo != nil && !seen[v.Repo.ID] {
			seen[v.Repo.ID] = true
			linked = append(linked, v.Repo)
		}
	}
	repoDTOs := map[int64]*repoDTO{}
	if len(linked) > 0 {
		access, err := s.repos.PermissionsFor(ctx, c, linked)
		if err != nil {
			return nil, err
		}
		visible := access[:0]
		for _, a := range access {
			if a.Perm.HasAnyAccess() || c.IsAdmin() {
				visible = append(visible, a)
			}
		}
		owners, err := s.repos.Owners(ctx, c, linked)
		if err != nil {
			return nil, err
		}
		rendered, err := s.renderReposWith(ctx, c, visible, owners)
		if err != nil {
			return nil, err
		}
		for _, d := range rendered {
			repoDTOs[d.ID] = d
		}
	}
	out := make([]packageDTO, 0, len(views))
	for _, v := range views {
		d := packageDTO{ID: v.Version.ID, Owner: owner, Type: string(v.Package.Type), Name: v.Package.Name,
			Version: v.Version.Version, CreatedAt: v.Version.CreatedAt,
			HTMLURL: s.packageURL(owner.Username, string(v.Package.Type), v.Package.Name, v.Version.Version)}
		if v.Creator != nil {
			cr := s.toUser(c, v.Creator)
			d.Creator = &cr
		}
		if v.Repo != nil {
			d.Repository = repoDTOs[v.Repo.ID]
		}
		out = append(out, d)
	}
	return out, nil
}

// packageURL is a version's web address (Gitea's HTMLURL).
func (s *kernel) packageURL(owner, typ, name, version string) string {
	return s.baseURL + "/" + owner + "/-/packages/" + typ + "/" + name + "/" + version
}

// list answers GET /packages/{username}.
func (s packageRoutesHandler) list(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	var typ packages.Type
	if t := q.r.URL.Query().Get("type"); t != "" {
		var ok bool
		if typ, ok = packages.ParseType(t); !ok {
			return errs.Invalid("type: unknown package type", "type")
		}
	}
	views, total, err := s.packages.List(q.r.Context(), q.subject, typ, strings.TrimSpace(q.r.URL.Query().Get("q")), opts)
	if err != nil {
		return err
	}
	out, err := s.renderPackages(q.r.Context(), q.caller, s.toUser(q.caller, q.subject), views)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// versions answers GET /packages/{username}/{type}/{name}.
func (s packageRoutesHandler) versions(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	views, total, err := s.packages.Versions(q.r.Context(), q.subject, q.var_("type"), q.var_("name"), opts)
	if err != nil {
		return err
	}
	out, err := s.renderPackages(q.r.Context(), q.caller, s.toUser(q.caller, q.subject), views)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// one renders a single version.
func (s packageRoutesHandler) one(q *request, version string) error {
	v, err := s.packages.Get(q.r.Context(), q.subject, q.var_("type"), q.var_("name"), version)
	if err != nil {
		return err
	}
	out, err := s.renderPackages(q.r.Context(), q.caller, s.toUser(q.caller, q.subject), []apppkgs.View{v})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, out[0])
	return nil
}

// get answers GET /packages/{username}/{type}/{name}/{version}.
func (s packageRoutesHandler) get(q *request) error { return s.one(q, q.var_("version")) }

// latest answers GET /packages/{username}/{type}/{name}/-/latest.
func (s packageRoutesHandler) latest(q *request) error { return s.one(q, "") }

// delete answers DELETE /packages/{username}/{type}/{name}/{version}.
func (s packageRoutesHandler) delete(q *request) error {
	if err := s.packages.DeleteVersion(q.r.Context(), q.caller.User, q.subject, q.var_("type"), q.var_("name"), q.var_("version")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// files answers GET /packages/{username}/{type}/{name}/{version}/files.
func (s packageRoutesHandler) files(q *request) error {
	list, err := s.packages.Files(q.r.Context(), q.subject, q.var_("type"), q.var_("name"), q.var_("version"))
	if err != nil {
		return err
	}
	out := make([]packageFileDTO, 0, len(list))
	for _, f := range list {
		out = append(out, packageFileDTO{ID: f.ID, Size: f.Blob.Size, Name: f.Name, MD5: f.Blob.MD5,
			SHA1: f.Blob.SHA1, SHA256: f.Blob.SHA256, SHA512: f.Blob.SHA512})
	}
	q.json(http.StatusOK, out)
	return nil
}

// link answers POST /packages/{username}/{type}/{name}/-/link/{repo_name}.
func (s packageRoutesHandler) link(q *request) error {
	if err := s.packages.Link(q.r.Context(), q.subject, q.var_("type"), q.var_("name"), q.var_("repo_name")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusCreated)
	return nil
}

// unlink answers POST /packages/{username}/{type}/{name}/-/unlink.
func (s packageRoutesHandler) unlink(q *request) error {
	if err := s.packages.Unlink(q.r.Context(), q.subject, q.var_("type"), q.var_("name")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
