package http

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// webSignIn serves the sign-in pages: the form for a username (or e-mail
// address) and password, the one-time code step for accounts with
// two-factor sign-in, and sign-out. Every form carries a CSRF token bound
// to the browser's session; every attempt spends a token of the address's
// rate-limit bucket, as failed API credentials do.
type webSignIn struct{ *kernel }

// form answers GET /user/login: the form, or who is signed in.
func (h webSignIn) form(w http.ResponseWriter, r *http.Request) {
	redirectTo := safeRedirectTo(r.URL.Query().Get(webRedirectToField))
	ws, err := h.webSession(r)
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	if ws.SignedIn() {
		if redirectTo != "" {
			http.Redirect(w, r, redirectTo, http.StatusSeeOther)
			return
		}
		h.renderPage(w, http.StatusOK, "signedin", webPage{Title: "Signed in", CSRF: ws.CSRFToken(), User: ws.User.Name})
		return
	}
	if ws == nil {
		if ws, err = h.web.Start(r.Context()); err != nil {
			h.pageError(w, r, err)
			return
		}
		h.setSessionCookie(w, ws)
	}
	h.renderPage(w, http.StatusOK, "signin", webPage{Title: "Sign in", CSRF: ws.CSRFToken(), RedirectTo: redirectTo},
		h.formTargetsAfter(r.Context(), redirectTo)...)
}

// signIn answers POST /user/login.
func (h webSignIn) signIn(w http.ResponseWriter, r *http.Request) {
	ws, form, ok := h.checkedForm(w, r)
	if !ok {
		return
	}
	redirectTo := safeRedirectTo(form.Get(webRedirectToField))
	next, err := h.web.SignIn(r.Context(), ws, form.Get("user_name"), form.Get("password"))
	if errors.Is(err, errs.ErrUnauthenticated) {
		h.renderPage(w, http.StatusOK, "signin", webPage{Title: "Sign in", CSRF: ws.CSRFToken(),
			RedirectTo: redirectTo, Login: form.Get("user_name"), Error: auth.MsgWebBadCredentials},
			h.formTargetsAfter(r.Context(), redirectTo)...)
		return
	}
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	h.setSessionCookie(w, next)
	if next.AwaitsPasscode() {
		to := webPasscodePath
		if redirectTo != "" {
			to += "?" + url.Values{webRedirectToField: {redirectTo}}.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	h.signedIn(w, r, next, redirectTo)
}

// passcodeForm answers GET /user/two_factor.
func (h webSignIn) passcodeForm(w http.ResponseWriter, r *http.Request) {
	redirectTo := safeRedirectTo(r.URL.Query().Get(webRedirectToField))
	ws, err := h.webSession(r)
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	if !ws.AwaitsPasscode() {
		to := webSignInPath
		if redirectTo != "" {
			to += "?" + url.Values{webRedirectToField: {redirectTo}}.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	h.renderPage(w, http.StatusOK, "passcode", webPage{Title: "Two-factor authentication", CSRF: ws.CSRFToken(),
		RedirectTo: redirectTo}, h.formTargetsAfter(r.Context(), redirectTo)...)
}

// passcode answers POST /user/two_factor.
func (h webSignIn) passcode(w http.ResponseWriter, r *http.Request) {
	ws, form, ok := h.checkedForm(w, r)
	if !ok {
		return
	}
	redirectTo := safeRedirectTo(form.Get(webRedirectToField))
	next, err := h.web.VerifyPasscode(r.Context(), ws, form.Get("passcode"))
	if errors.Is(err, errs.ErrUnauthenticated) {
		if !ws.AwaitsPasscode() {
			http.Redirect(w, r, webSignInPath, http.StatusSeeOther)
			return
		}
		h.renderPage(w, http.StatusOK, "passcode", webPage{Title: "Two-factor authentication", CSRF: ws.CSRFToken(),
			RedirectTo: redirectTo, Error: auth.MsgWebBadPasscode}, h.formTargetsAfter(r.Context(), redirectTo)...)
		return
	}
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	h.setSessionCookie(w, next)
	h.signedIn(w, r, next, redirectTo)
}

// signedIn ends a successful sign-in: an account that may not sign in
// (inactive, prohibited, not activated, must change its password) is
// signed out again and told why; any other goes on to redirectTo.
func (h webSignIn) signedIn(w http.ResponseWriter, r *http.Request, ws *auth.WebSession, redirectTo string) {
	if err := permission.CheckAccount(ws.Caller().Actor(), h.settings.RequireEmailConfirmation, h.baseURL+"/user/settings/account"); err != nil {
		if serr := h.web.SignOut(r.Context(), ws); serr != nil {
			h.pageError(w, r, serr)
			return
		}
		h.clearSessionCookie(w)
		h.pageError(w, r, err)
		return
	}
	if redirectTo == "" {
		redirectTo = webSignInPath
	}
	http.Redirect(w, r, redirectTo, http.StatusSeeOther)
}

// signOut answers POST /user/logout.
func (h webSignIn) signOut(w http.ResponseWriter, r *http.Request) {
	ws, _, ok := h.checkedForm(w, r)
	if !ok {
		return
	}
	if err := h.web.SignOut(r.Context(), ws); err != nil {
		h.pageError(w, r, err)
		return
	}
	h.clearSessionCookie(w)
	http.Redirect(w, r, webSignInPath, http.StatusSeeOther)
}

// checkedForm reads a posted form, and answers (returning false) unless it
// carries the CSRF token of the browser's session and the address may try
// again: 400 without a session or token, 429 past the rate limit.
func (h webSignIn) checkedForm(w http.ResponseWriter, r *http.Request) (*auth.WebSession, url.Values, bool) {
	ws, form, ok := h.kernel.checkedForm(w, r)
	if !ok {
		return nil, nil, false
	}
	if d, limited := h.limits.take(auth.Caller{}, r); limited {
		writeRateHeaders(w, d)
		if !d.Allowed {
			h.pageMessage(w, http.StatusTooManyRequests, "Too many attempts",
				"Too many sign-in attempts from your address; retry after "+w.Header().Get("Retry-After")+" seconds.")
			return nil, nil, false
		}
	}
	return ws, form, true
}

// checkedForm reads a posted form of Depot's pages and checks its CSRF
// token against the browser's session, in constant time; without a
// session or with a wrong token it answers 400 and returns false.
func (s *kernel) checkedForm(w http.ResponseWriter, r *http.Request) (*auth.WebSession, url.Values, bool) {
	form, err := readWebForm(w, r)
	if err != nil {
		s.pageMessage(w, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return nil, nil, false
	}
	ws, err := s.webSession(r)
	if err != nil {
		s.pageError(w, r, err)
		return nil, nil, false
	}
	if ws == nil || !ws.CheckCSRF(form.Get(webCSRFField)) {
		s.pageMessage(w, http.StatusBadRequest, "Bad request",
			"Invalid CSRF token: reload the page and try again.")
		return nil, nil, false
	}
	return ws, form, true
}

// pageError answers an error with a page and the status its category has.
func (s *kernel) pageError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, ok := httpkit.StatusOf(err)
	if !ok {
		s.log.Error("web page failed", "path", r.URL.Path, "err", err)
		s.pageMessage(w, http.StatusInternalServerError, "Something went wrong", "The server could not answer; try again later.")
		return
	}
	s.pageMessage(w, status, http.StatusText(status), msg)
}
