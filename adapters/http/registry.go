package http

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/gorilla/mux"
)

// registryPrefix is where the package registries live, outside the REST
// API, as Gitea serves them.
const registryPrefix = "/api/packages"

// registryChallenge is the WWW-Authenticate of an anonymous write, as
// Gitea's package API sends it.
const registryChallenge = `Basic realm="Gitea Package API"`

// registryCall is one registry request: the caller and the owner named in
// the path, resolved and admitted.
type registryCall struct {
	w      http.ResponseWriter
	r      *http.Request
	caller auth.Caller
	owner  *user.User
	vars   map[string]string
}

// registryHandler serves one registry route; its error is answered in the
// registry's own format by the registry's writer.
type registryHandler func(c *registryCall) error

// registryErrorWriter answers an error in a registry's format.
type registryErrorWriter func(w http.ResponseWriter, status int, msg string)

// mountRegistries registers every registry under /api/packages/{owner}/,
// and the container registry under /v2/.
func (s *kernel) mountRegistries(router *mux.Router) {
	sub := router.PathPrefix(registryPrefix + "/{owner}/").Subrouter()
	s.genericRegistryRoutes(sub)
	s.npmRegistryRoutes(sub)
	s.pypiRegistryRoutes(sub)
	s.goRegistryRoutes(sub)
	s.containerRegistryRoutes(router)
}

// registry wraps h: it authenticates the caller (Basic, token or bearer),
// checks the token's package scope, resolves the owner (404 when absent or
// hidden from the caller, and for a public-only token on a non-public
// owner) and the caller's access to its packages: read for reads, write
// for writes (401 with the challenge when anonymous, 403 otherwise).
func (s *kernel) registry(write bool, writeErr registryErrorWriter, h registryHandler) http.HandlerFunc {
	fail := func(w http.ResponseWriter, r *http.Request, err error) {
		if errors.Is(err, errs.ErrUnauthenticated) {
			w.Header().Set("WWW-Authenticate", registryChallenge)
		}
		if status, msg, ok := httpkit.StatusOf(err); ok {
			writeErr(w, status, msg)
			return
		}
		if httpkit.ClientGone(r, err) {
			w.WriteHeader(httpkit.StatusClientClosedRequest)
			return
		}
		s.log.Error("registry request failed", "method", r.Method, "path", r.URL.Path, "request_id", requestID(w), "err", err)
		writeErr(w, http.StatusInternalServerError, "internal server error (request "+requestID(w)+")")
	}
	return func(w http.ResponseWriter, r *http.Request) {
		start := s.registryRequests.Started()
		defer func() { s.registryRequests.Done(start, r.Method, statusOf(w)) }()
		vars := mux.Vars(r)
		for k, v := range vars {
			dec, err := url.PathUnescape(v)
			if err != nil || strings.IndexByte(dec, 0) >= 0 {
				fail(w, r, errs.BadRequest("malformed path"))
				return
			}
			vars[k] = dec
		}
		c := &registryCall{w: w, r: r, vars: vars}
		if err := s.admitRegistry(c, write); err != nil {
			fail(w, r, err)
			return
		}
		if err := h(c); err != nil {
			fail(w, r, err)
		}
	}
}

// admitRegistry resolves and checks the caller and the owner of c.
func (s *kernel) admitRegistry(c *registryCall, write bool) error {
	ctx := c.r.Context()
	caller, err := s.auth.Authenticate(ctx, registryCredentials(c.r))
	if err != nil {
		return err
	}
	c.caller = caller
	return s.admitOwner(c, write)
}

// admitOwner checks c's authenticated caller and resolves and checks the
// owner of c.
func (s *kernel) admitOwner(c *registryCall, write bool) error {
	ctx := c.r.Context()
	caller := c.caller
	actor := caller.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.baseURL+"/user/settings/account"); err != nil {
		return err
	}
	if err := permission.CheckSignInRequired(actor, s.settings.RequireSignInView); err != nil {
		return err
	}
	if write && !caller.Signed() {
		return errs.Unauthenticated("user should be signed in")
	}
	if err := permission.CheckScope(actor, write, catPackage); err != nil {
		return err
	}
	owner, err := s.users.Resolve(ctx, caller, c.vars["owner"])
	if err != nil {
		return errs.NotFound("owner does not exist")
	}
	c.owner = owner
	notPublic := owner.Visibility != user.VisibilityPublic
	if err := permission.CheckPublicOnly(actor, scopes(catPackage), permission.PublicTarget{
		UserNotPublic: notPublic && owner.Kind == user.KindIndividual,
		OrgNotPublic:  notPublic && owner.Kind == user.KindOrganization,
	}); err != nil {
		return err
	}
	mode, err := s.packages.Mode(ctx, caller, owner)
	if err != nil {
		return err
	}
	need := permission.ModeRead
	if write {
		need = permission.ModeWrite
	}
	if mode < need && !caller.IsAdmin() {
		if !caller.Signed() {
			return errs.Unauthenticated("user should be signed in")
		}
		return errs.Forbidden("user should have specific permission or be a site admin")
	}
	return nil
}

// registryCredentials reads what a package client presents: the API's
// headers (Basic with a password or a token as password, "token …" and
// "Bearer …").
func registryCredentials(r *http.Request) auth.Credentials {
	return httpkit.HeaderCredentials(r)
}

// writePlain answers a registry error as plain text, as Gitea's generic
// registry does.
func writePlain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}
