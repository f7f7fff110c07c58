package http

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/gorilla/mux"
)

// handler serves one route; an error is answered by writeError.
type handler func(q *request) error

// request is what a handler works with: the exchange, the caller and the
// account named in the path.
type request struct {
	w       http.ResponseWriter
	r       *http.Request
	caller  auth.Caller
	subject *user.User
	// repo is the repository named in the path, as the caller reaches it.
	repo *repos.Access
	// org and team are the organisation ({org}) and team ({teamid}) named
	// in the path, as the caller reaches them.
	org  *orgs.Access
	team *orgs.TeamAccess
	vars map[string]string
	// cond is the writer that holds back a GET's answer (conditional.go),
	// kept here to spare allocating it.
	cond conditionalWriter
}

func (q *request) json(status int, v any) { writeJSON(q.w, status, v) }

// var_ returns a path variable, unescaped.
func (q *request) var_(name string) string { return q.vars[name] }

// accessRules are a route's access column, compiled.
type accessRules struct {
	codes []permission.Code
	// early are T and SA, checked before the path's account is loaded.
	early     []permission.Code
	basic     bool // Basic auth with a password
	explore   bool // sign-in when exploring is restricted
	usersPage bool // the users page must be enabled
	httpSig   bool // an HTTP signature (verified by the handler) with federation on
	// notBlocked is set when the codes hold NotBlocked, so the block is
	// looked up only for the rows that ask.
	notBlocked bool
	// packages is set when the codes hold PkgRead or PkgWrite, so the
	// caller's access to the owner's packages is worked out only there.
	packages bool
	// signedURL: a signature in the query is the credential, checked by
	// the handler; no repository is resolved for the caller.
	signedURL bool
}

type compiledRoute struct {
	route
	rules accessRules
}

func parseAccess(s string) (accessRules, error) {
	var a accessRules
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "", "-":
		case "Basic":
			a.basic = true
		case "Explore":
			a.explore = true
		case "UsersPage":
			a.usersPage = true
		case "SignedURL":
			a.signedURL = true
		case "HTTPSig":
			a.httpSig = true
		default:
			c, err := permission.ParseCode(part)
			if err != nil {
				return a, err
			}
			a.codes = append(a.codes, c)
			a.notBlocked = a.notBlocked || c.Kind == permission.CodeNotBlocked
			a.packages = a.packages || c.Kind == permission.CodePkgRead || c.Kind == permission.CodePkgWrite
			if c.Kind == permission.CodeT || c.Kind == permission.CodeSA {
				a.early = append(a.early, c)
			}
		}
	}
	return a, nil
}

// credentials reads what the request presents, a trusted reverse proxy's
// user header included.
func (s *kernel) credentials(r *http.Request) auth.Credentials {
	c := httpkit.HeaderCredentials(r)
	s.proxy.Read(r, &c)
	if r.URL.RawQuery != "" {
		q := r.URL.Query()
		c.Sudo = q.Get("sudo")
		c.QueryToken = q.Get("token")
		if c.QueryToken == "" {
			c.QueryToken = q.Get("access_token")
		}
	}
	if c.Sudo == "" {
		c.Sudo = r.Header.Get("Sudo")
	}
	return c
}

// queryTokenWarning is the deprecation notice for query-string tokens.
const queryTokenWarning = "token and access_token API authentication is deprecated and will be removed in a future release; use the Authorization header"

// serve resolves the caller, enforces the route's access rules in the spec's
// order, and runs the handler.
func (s *kernel) serve(c *compiledRoute) func(http.ResponseWriter, *http.Request) {
	memo := c.method == http.MethodGet && memoRoutes[c.path]
	requests := s.metrics.Route(c.path)
	return func(w http.ResponseWriter, r *http.Request) {
		start := requests.Started()
		defer func() { requests.Done(start, r.Method, statusOf(w)) }()
		// A repeated conditional GET may be answered before anything else
		// (conditional_memo.go).
		var pending *memoPending
		if memo {
			var answered bool
			if answered, pending = s.memoLookup(w, r); answered {
				return
			}
		}
		// The router matches the escaped path, so its variables are still
		// escaped; handlers get them decoded ("my%20token" is "my token").
		vars := mux.Vars(r)
		for k, v := range vars {
			dec, err := url.PathUnescape(v)
			if err != nil || strings.IndexByte(dec, 0) >= 0 {
				s.writeError(w, r, errs.BadRequest("malformed path"))
				return
			}
			vars[k] = dec
		}
		// A NUL cannot be stored or looked up; refuse it before any query.
		if r.URL.RawQuery != "" && queryHasNUL(r.URL.Query()) {
			s.writeError(w, r, errs.BadRequest("malformed query"))
			return
		}
		q := &request{w: w, r: r, vars: vars}
		err := s.admit(q, c)
		// The caller's buckets are charged whatever the admission said,
		// so failed credentials spend their address's.
		if d, limited := s.limits.take(q.caller, r); limited {
			writeRateHeaders(w, d)
			if !d.Allowed {
				s.writeMessage(w, http.StatusTooManyRequests, "API rate limit exceeded; retry after "+
					w.Header().Get("Retry-After")+" seconds")
				return
			}
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if r.Method == http.MethodGet && !s.unconditional {
			cw := &q.cond
			cw.start(w, r, q.caller.Signed())
			q.w = cw
			if err := c.handle(q); err != nil {
				cw.discard()
				s.writeError(w, r, err)
				return
			}
			if etag := cw.finish(); etag != "" && pending != nil {
				s.notModified.put(pending.key, memoEntry{stamp: pending.stamp, etag: etag, caller: q.caller})
			}
			return
		}
		if err := c.handle(q); err != nil {
			s.writeError(w, r, err)
		}
	}
}

func queryHasNUL(q url.Values) bool {
	for k, vs := range q {
		if strings.IndexByte(k, 0) >= 0 {
			return true
		}
		for _, v := range vs {
			if strings.IndexByte(v, 0) >= 0 {
				return true
			}
		}
	}
	return false
}

func (s *kernel) admit(q *request, c *compiledRoute) error {
	cred := httpkit.SignedCredentials(s.credentials(q.r), q.r, s.sshSignatures)
	if cred.QueryToken != "" {
		q.w.Header().Set("X-Service-Warning", queryTokenWarning)
		q.w.Header().Set("X-Gitea-Warning", queryTokenWarning)
	}
	caller, err := s.auth.Authenticate(q.r.Context(), cred)
	if err != nil {
		return err
	}
	q.caller = caller
	actor := caller.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.baseURL+"/user/settings/account"); err != nil {
		return err
	}
	if c.path != "/version" {
		if err := permission.CheckSignInRequired(actor, s.settings.RequireSignInView); err != nil {
			return err
		}
	}
	if c.scopes != nil {
		if err := permission.CheckScope(actor, isWrite(q.r.Method), c.scopes...); err != nil {
			return err
		}
	}
	if c.rules.usersPage && s.settings.DisableUsersPage {
		return errs.NotFound("route not found")
	}
	if c.rules.explore && s.settings.RestrictExploring && !caller.Signed() {
		return errs.Unauthenticated("you must be signed in to search for users")
	}
	if c.rules.basic {
		if !caller.Signed() || !caller.CanManageTokens() {
			return errs.Unauthenticated("auth required")
		}
	}
	// T and SA do not depend on the account named in the path, so they go
	// first, as Gitea checks reqToken and reqSiteAdmin on its admin group
	// before loading the user: refused callers learn nothing about accounts.
	if err := permission.CheckAll(c.rules.early, permission.Facts{Actor: actor}); err != nil {
		return err
	}
	if name, ok := q.vars["username"]; ok {
		subject, err := s.users.Resolve(q.r.Context(), caller, name)
		if err != nil {
			return err
		}
		q.subject = subject
		// A public-only token may not touch a non-public account named in
		// the path (spec section 5 rule 5; Gitea's checkTokenPublicOnly runs
		// right after resolving the context user, before the route's checks).
		notPublic := subject.Visibility != user.VisibilityPublic
		if err := permission.CheckPublicOnly(actor, c.scopes, permission.PublicTarget{
			UserNotPublic: notPublic && subject.Kind == user.KindIndividual,
			OrgNotPublic:  notPublic && subject.Kind == user.KindOrganization,
		}); err != nil {
			return err
		}
	}
	if c.rules.httpSig {
		if err := s.requireSignature(q.r); err != nil {
			return err
		}
	}
	if !c.rules.signedURL {
		if err := s.resolveRepo(q, c); err != nil {
			return err
		}
	}
	if err := s.resolveOrg(q, c); err != nil {
		return err
	}
	facts := permission.Facts{Actor: actor}
	if q.repo != nil {
		facts = q.repo.Facts()
		// BW: write access to code here; the body's target branch and its
		// protection rule are judged by the contents use cases
		// (app/content/branch_protections.go), which read the body.
		facts.BranchWritable = q.repo.Perm.CanWrite(permission.UnitCode)
	}
	if q.subject != nil {
		facts.SubjectUserID = q.subject.ID
	}
	orgFacts(q, &facts)
	facts.WebhooksEnabled, facts.StarsEnabled = s.settings.EnableWebhooks, s.settings.EnableStars
	facts.AttachmentsEnabled = !s.settings.DisableAttachments
	facts.GitHooksEnabled = s.settings.EnableGitHooks
	facts.AllowGitHook = caller.User != nil && caller.User.AllowGitHook
	if owner := packageOwner(q); c.rules.packages && owner != nil {
		mode, err := s.packages.Mode(q.r.Context(), caller, owner)
		if err != nil {
			return err
		}
		facts.PackageMode = mode
	}
	if c.rules.notBlocked && q.repo != nil {
		blocked, err := s.users.BlockedByAny(q.r.Context(), caller.User, q.repo.Repo.Owner.ID)
		if err != nil {
			return err
		}
		facts.BlockedByOwner = blocked
	}
	return permission.CheckAll(c.rules.codes, facts)
}

// packageOwner is whose packages PkgRead and PkgWrite judge: the path's
// account ({username}), else its organisation ({org}), else the signed-in
// caller (the /user/packages rows).
func packageOwner(q *request) *user.User {
	switch {
	case q.subject != nil:
		return q.subject
	case q.org != nil:
		return &q.org.Org.User
	}
	return q.caller.User
}

// resolveRepo loads the repository the path names ({owner}/{repo}, or
// {repoid}), with the caller's permission: 404 when absent or when the
// caller may read none of it, a redirect when renamed, and the public-only
// token rule for private repositories.
func (s *kernel) resolveRepo(q *request, c *compiledRoute) error {
	var (
		a   *repos.Access
		err error
	)
	if owner, ok := q.vars["owner"]; ok {
		a, err = s.repos.Open(q.r.Context(), q.caller, owner, q.vars["repo"])
	} else if v, ok := q.vars["repoid"]; ok {
		id, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || id <= 0 {
			return errs.BadRequest("id: must be a positive integer")
		}
		a, err = s.repos.OpenByID(q.r.Context(), q.caller, id)
	} else {
		return nil
	}
	if err != nil {
		return err
	}
	q.repo = a
	return permission.CheckPublicOnly(q.caller.Actor(), c.scopes, permission.PublicTarget{RepoPrivate: a.Repo.Private})
}

func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
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

// statusOf is the status the answer got (200 when the handler wrote a body
// without one, or nothing).
func statusOf(w http.ResponseWriter) int {
	if sw, ok := w.(*httpkit.StatusWriter); ok && sw.Status != 0 {
		return sw.Status
	}
	return http.StatusOK
}

// requireSignature is HTTPSig: the inboxes exist only while federation is
// on, and take only signed requests (the handler checks the signature,
// which needs the body and the remote actor's key).
func (s *kernel) requireSignature(r *http.Request) error {
	if !s.federation.Enabled() {
		return errs.NotFound("route not found")
	}
	_, ok, err := security.SignatureOf(r.Header)
	if err != nil {
		return err
	}
	if !ok {
		return errs.Unauthenticated("request signature is missing")
	}
	return nil
}
