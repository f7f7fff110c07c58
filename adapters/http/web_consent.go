package http

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/app/auth"
	domain "github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
)

// webConsent serves the OAuth2 consent step of GET /login/oauth/authorize
// for browsers, as Gitea's: the user signs in on the sign-in page (or
// through a trusted reverse proxy), then sees which application asks for
// which scopes and grants or denies it. An application that skips the
// secondary authorization, or one the user granted the same scopes before,
// gets its code at once.
type webConsent struct{ *kernel }

// The fields of an authorization request, carried by the consent form.
var authorizeFields = []string{"response_type", "client_id", "redirect_uri", "state", "scope", "nonce",
	"code_challenge", "code_challenge_method"}

// webCaller is who a browser is on Depot's pages: the user a trusted
// reverse proxy names, else the session's. The session is returned too
// (nil when the browser has none) for its forms' CSRF token.
func (s *kernel) webCaller(r *http.Request) (auth.Caller, *auth.WebSession, error) {
	ws, err := s.webSession(r)
	if err != nil {
		return auth.Caller{}, nil, err
	}
	var c auth.Credentials
	s.proxy.Read(r, &c)
	if c.ProxyUser != "" {
		caller, err := s.auth.Authenticate(r.Context(), c)
		return caller, ws, err
	}
	return ws.Caller(), ws, nil
}

// authorize answers a browser's authorization request: the request is
// checked against its application first (an unknown client or an
// unregistered redirect URI is a 400 page, never a redirect), then the
// browser is sent to sign in, then asked for consent unless none is needed.
func (h webConsent) authorize(w http.ResponseWriter, r *http.Request, req domain.AuthorizeRequest) {
	app, err := h.oauth2.CheckAuthorize(r.Context(), req)
	if err != nil {
		h.authorizeFailed(w, r, req, err)
		return
	}
	caller, ws, err := h.webCaller(r)
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	if !caller.Signed() {
		http.Redirect(w, r, webSignInPath+"?"+url.Values{webRedirectToField: {r.URL.RequestURI()}}.Encode(), http.StatusSeeOther)
		return
	}
	if err := permission.CheckAccount(caller.Actor(), h.settings.RequireEmailConfirmation, h.baseURL+"/user/settings/account"); err != nil {
		h.pageError(w, r, err)
		return
	}
	need, err := h.oauth2.NeedsConsent(r.Context(), caller.User, app, req)
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	if !need {
		h.grantCode(w, r, caller, req, http.StatusFound)
		return
	}
	if ws == nil {
		// A reverse proxy's user without a session yet: the form's CSRF
		// token needs one.
		if ws, err = h.web.Start(r.Context()); err != nil {
			h.pageError(w, r, err)
			return
		}
		h.setSessionCookie(w, ws)
	}
	p := webPage{Title: "Authorize " + app.Name, CSRF: ws.CSRFToken(), User: caller.User.Name, App: app.Name,
		RedirectURI: req.RedirectURI, Scopes: strings.Fields(req.Scope)}
	if p.AppOwner, err = h.oauth2.OwnerName(r.Context(), app); err != nil {
		h.pageError(w, r, err)
		return
	}
	p.AllAPI = namesNoAPIScope(req.Scope)
	q := r.URL.Query()
	for _, k := range authorizeFields {
		if v := q.Get(k); v != "" {
			p.Hidden = append(p.Hidden, webField{Name: k, Value: v})
		}
	}
	h.renderPage(w, http.StatusOK, "consent", p, cspSource(req.RedirectURI))
}

// namesNoAPIScope reports whether a scope names no API token scope, in
// which case the grant's tokens reach every category (oauth2.APIScopes).
func namesNoAPIScope(scope string) bool {
	for _, s := range strings.Fields(scope) {
		if _, err := token.ParseScopes([]string{s}); err == nil {
			return false
		}
	}
	return true
}

// grant answers POST /login/oauth/grant, the consent form: Grant sends the
// browser to the redirect URI with a code and the state, Deny with
// error=access_denied and the state.
func (h webConsent) grant(w http.ResponseWriter, r *http.Request) {
	_, form, ok := h.checkedForm(w, r)
	if !ok {
		return
	}
	req, err := domain.ParseAuthorizeRequest(form)
	if err != nil {
		h.authorizeFailed(w, r, req, err)
		return
	}
	caller, _, err := h.webCaller(r)
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	if !caller.Signed() {
		h.pageMessage(w, http.StatusUnauthorized, "Sign in required", "Your session has ended: sign in and authorize the application again.")
		return
	}
	if err := permission.CheckAccount(caller.Actor(), h.settings.RequireEmailConfirmation, h.baseURL+"/user/settings/account"); err != nil {
		h.pageError(w, r, err)
		return
	}
	if form.Get("granted") != "true" {
		to, err := h.oauth2.Deny(r.Context(), req)
		if err != nil {
			h.authorizeFailed(w, r, req, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	h.grantCode(w, r, caller, req, http.StatusSeeOther)
}

// grantCode records the grant and sends the browser to the redirect URI
// with a code.
func (h webConsent) grantCode(w http.ResponseWriter, r *http.Request, caller auth.Caller, req domain.AuthorizeRequest, status int) {
	to, err := h.oauth2.Authorize(r.Context(), caller.User, req)
	if err != nil {
		h.authorizeFailed(w, r, req, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, status)
}

// authorizeFailed answers a failed authorization request to a browser: to
// the redirect URI when the error may go there, else with a 400 page.
func (h webConsent) authorizeFailed(w http.ResponseWriter, r *http.Request, req domain.AuthorizeRequest, err error) {
	var ae *domain.AuthorizeError
	if !errors.As(err, &ae) {
		h.pageError(w, r, err)
		return
	}
	if ae.Redirect {
		h.authorizeRedirectError(w, r, req, ae)
		return
	}
	h.pageMessage(w, http.StatusBadRequest, "Authorization failed", ae.Code+": "+ae.Description)
}
