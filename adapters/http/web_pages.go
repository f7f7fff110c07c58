package http

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/depothq/depot/app/auth"
	domain "github.com/depothq/depot/domain/oauth2"
)

// Depot's own web pages: the sign-in form (web_signin.go) and the OAuth2
// consent page (web_consent.go). They are server-rendered from the
// templates under web/, need no JavaScript, and answer with a strict
// Content-Security-Policy: nothing loads but the page's own style, which
// carries a nonce, and forms may post only to Depot and to the redirect
// URI of the application being authorized (browsers check form-action on
// the redirects a form's answer makes).

//go:embed web/*.html
var webTemplateFiles embed.FS

var webTemplates = template.Must(template.ParseFS(webTemplateFiles, "web/*.html"))

// Web pages' paths and limits.
const (
	webSignInPath      = "/user/login"
	webPasscodePath    = "/user/two_factor"
	webSignOutPath     = "/user/logout"
	webGrantPath       = "/login/oauth/grant"
	webSessionCookie   = "depot_session"
	webMaxFormBytes    = 16 << 10
	webMaxRedirectTo   = 4096
	webCSRFField       = "_csrf"
	webRedirectToField = "redirect_to"
)

// mountWebPages registers the sign-in and consent pages.
func (s *kernel) mountWebPages(router *mux.Router) {
	in := webSignIn{s}
	router.Path(webSignInPath).Methods(http.MethodGet).HandlerFunc(in.form)
	router.Path(webSignInPath).Methods(http.MethodPost).HandlerFunc(in.signIn)
	router.Path(webPasscodePath).Methods(http.MethodGet).HandlerFunc(in.passcodeForm)
	router.Path(webPasscodePath).Methods(http.MethodPost).HandlerFunc(in.passcode)
	router.Path(webSignOutPath).Methods(http.MethodPost).HandlerFunc(in.signOut)
	router.Path(webGrantPath).Methods(http.MethodPost).HandlerFunc(webConsent{s}.grant)
}

// webPage is what the templates read; each page uses some of it.
type webPage struct {
	Title, Site, Nonce, CSRF, Error, Message string
	// Login and RedirectTo refill the sign-in form.
	Login, RedirectTo string
	// User is the signed-in account's name.
	User string
	// App, AppOwner, Scopes, AllAPI, RedirectURI and Hidden are the
	// consent page's.
	App, AppOwner, RedirectURI string
	Scopes                     []string
	AllAPI                     bool
	Hidden                     []webField
}

// webField is a hidden form field.
type webField struct{ Name, Value string }

// renderPage writes the template name with status. formTargets are the
// sources beyond 'self' its forms (and the redirects they lead to) may
// reach.
func (s *kernel) renderPage(w http.ResponseWriter, status int, name string, p webPage, formTargets ...string) {
	var nonce [18]byte
	_, _ = rand.Read(nonce[:])
	p.Nonce = base64.RawURLEncoding.EncodeToString(nonce[:])
	p.Site = s.settings.Name
	var buf bytes.Buffer
	if err := webTemplates.ExecuteTemplate(&buf, name, p); err != nil {
		s.log.Error("web page not rendered", "page", name, "err", err)
		http.Error(w, "internal server error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", contentSecurityPolicy(p.Nonce, formTargets))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// contentSecurityPolicy allows the page's own style (by nonce) and forms
// posting to Depot and to formTargets; nothing else.
func contentSecurityPolicy(nonce string, formTargets []string) string {
	action := "'self'"
	for _, t := range formTargets {
		if t != "" {
			action += " " + t
		}
	}
	return "default-src 'none'; style-src 'nonce-" + nonce + "'; img-src 'self'; form-action " + action +
		"; frame-ancestors 'none'; base-uri 'none'"
}

// cspSource is the CSP source expression matching a redirect URI: its
// origin for http and https, its scheme for a native application's custom
// scheme; "" when it has characters a policy cannot hold.
func cspSource(redirectURI string) string {
	u, err := url.Parse(redirectURI)
	if err != nil || u.Scheme == "" {
		return ""
	}
	src := u.Scheme + ":"
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		src = u.Scheme + "://" + u.Host
	}
	if strings.ContainsAny(src, " \t\r\n;,'\"") {
		return ""
	}
	return src
}

// pageMessage answers with a page holding a title and a message.
func (s *kernel) pageMessage(w http.ResponseWriter, status int, title, msg string) {
	s.renderPage(w, status, "message", webPage{Title: title, Message: msg})
}

// webSession finds the browser's session; nil when it has none.
func (s *kernel) webSession(r *http.Request) (*auth.WebSession, error) {
	c, err := r.Cookie(webSessionCookie)
	if err != nil {
		return nil, nil
	}
	return s.web.Open(r.Context(), c.Value)
}

// setSessionCookie hands the browser its session: HttpOnly, SameSite=Lax,
// Secure when the site is served over https.
func (s *kernel) setSessionCookie(w http.ResponseWriter, ws *auth.WebSession) {
	http.SetCookie(w, &http.Cookie{Name: webSessionCookie, Value: ws.Token, Path: "/", Expires: ws.Expires,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(s.baseURL, "https://")})
}

// clearSessionCookie tells the browser to forget its session.
func (s *kernel) clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: webSessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(s.baseURL, "https://")})
}

// readWebForm reads a bounded urlencoded form.
func readWebForm(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	r.Body = http.MaxBytesReader(w, r.Body, webMaxFormBytes)
	if err := r.ParseForm(); err != nil {
		return nil, err
	}
	return r.PostForm, nil
}

// safeRedirectTo keeps a redirect_to that stays on this site: a path
// starting with one slash (not "//" nor "/\", which browsers take for
// another host), without control characters; "" otherwise.
func safeRedirectTo(raw string) string {
	if raw == "" || len(raw) > webMaxRedirectTo || raw[0] != '/' {
		return ""
	}
	if len(raw) > 1 && (raw[1] == '/' || raw[1] == '\\') {
		return ""
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < 0x20 || raw[i] == 0x7f || raw[i] == '\\' {
			return ""
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return ""
	}
	return raw
}

// formTargetsAfter are the CSP form-action sources a sign-in form needs
// when it leads back to redirectTo: the redirect URI of the authorization
// request it names, when that request is one of a registered application.
func (s *kernel) formTargetsAfter(ctx context.Context, redirectTo string) []string {
	u, err := url.Parse(redirectTo)
	if redirectTo == "" || err != nil || u.Path != oauth2AuthorizePath {
		return nil
	}
	req, err := domain.ParseAuthorizeRequest(u.Query())
	if err != nil {
		return nil
	}
	// Errors sent to the redirect URI leave by it too.
	var ae *domain.AuthorizeError
	if _, err := s.oauth2.CheckAuthorize(ctx, req); err != nil && (!errors.As(err, &ae) || !ae.Redirect) {
		return nil
	}
	return []string{cspSource(req.RedirectURI)}
}
