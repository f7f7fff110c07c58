package http

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/oauth2"
	domain "github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/domain/permission"
)

// The provider's endpoints, outside the API as Gitea serves them.
const (
	oauth2AuthorizePath   = "/login/oauth/authorize"
	oauth2TokenPath       = "/login/oauth/access_token"
	oauth2UserInfoPath    = "/login/oauth/userinfo"
	oauth2IntrospectPath  = "/login/oauth/introspect"
	oauth2KeysPath        = "/login/oauth/keys"
	openIDConfigPath      = "/.well-known/openid-configuration"
	oauth2MaxFormBytes    = 64 << 10
	oauth2BasicAuthRealm  = `Basic realm="Depot"`
	oauth2BearerChallenge = `Bearer realm="Depot"`
)

// oauth2Provider serves Depot as an OAuth2 and OpenID Connect provider.
type oauth2Provider struct{ *kernel }

// mountOAuth2Provider registers the provider's endpoints on the site's router.
func (s *kernel) mountOAuth2Provider(router *mux.Router) {
	h := oauth2Provider{s}
	router.Path(oauth2AuthorizePath).Methods(http.MethodGet).HandlerFunc(h.authorize)
	router.Path(oauth2TokenPath).Methods(http.MethodPost).HandlerFunc(h.accessToken)
	router.Path(oauth2UserInfoPath).Methods(http.MethodGet, http.MethodPost).HandlerFunc(h.userInfo)
	router.Path(oauth2IntrospectPath).Methods(http.MethodPost).HandlerFunc(h.introspect)
	router.Path(oauth2KeysPath).Methods(http.MethodGet).HandlerFunc(h.keys)
	router.Path(openIDConfigPath).Methods(http.MethodGet).HandlerFunc(h.openIDConfiguration)
}

// oauth2ErrorBody is RFC 6749's error answer.
type oauth2ErrorBody struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// authorize answers GET /login/oauth/authorize. A browser (a request
// without an Authorization header) goes through the sign-in and consent
// pages (web_consent.go). A client that sends HTTP Basic with the user's
// password (a token cannot mint a grant) is granted at once, as before the
// pages existed. Errors found before the client and its redirect URI are
// trusted are answered with 400 here, never sent to the given redirect URI.
func (h oauth2Provider) authorize(w http.ResponseWriter, r *http.Request) {
	req, err := domain.ParseAuthorizeRequest(r.URL.Query())
	if err != nil {
		h.authorizeError(w, r, req, err)
		return
	}
	if r.Header.Get("Authorization") == "" {
		webConsent{h.kernel}.authorize(w, r, req)
		return
	}
	caller, err := h.auth.Authenticate(r.Context(), httpkit.HeaderCredentials(r))
	if err == nil && caller.Signed() && caller.Method != auth.MethodBasic {
		err = errors.New("sign in with your password")
	}
	if err == nil && !caller.Signed() {
		err = errors.New("sign in required")
	}
	if err == nil {
		err = permission.CheckAccount(caller.Actor(), h.settings.RequireEmailConfirmation, h.baseURL+"/user/settings/account")
	}
	if err != nil {
		w.Header().Set("WWW-Authenticate", oauth2BasicAuthRealm)
		h.writeMessage(w, http.StatusUnauthorized, "sign in with your username and password to authorize the application")
		return
	}
	to, err := h.oauth2.Authorize(r.Context(), caller.User, req)
	if err != nil {
		h.authorizeError(w, r, req, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusFound)
}

// authorizeError answers a failed authorization request: to the redirect
// URI when the error may go there; else 400, a page for a browser and
// RFC 6749's JSON for a client sending credentials.
func (h oauth2Provider) authorizeError(w http.ResponseWriter, r *http.Request, req domain.AuthorizeRequest, err error) {
	var ae *domain.AuthorizeError
	if !errors.As(err, &ae) {
		h.writeError(w, r, err)
		return
	}
	if ae.Redirect {
		h.authorizeRedirectError(w, r, req, ae)
		return
	}
	if r.Header.Get("Authorization") == "" {
		h.pageMessage(w, http.StatusBadRequest, "Authorization failed", ae.Code+": "+ae.Description)
		return
	}
	writeJSON(w, http.StatusBadRequest, oauth2ErrorBody{Error: ae.Code, Description: ae.Description})
}

// authorizeRedirectError sends an authorization error to the client's
// (registered) redirect URI with the state.
func (s *kernel) authorizeRedirectError(w http.ResponseWriter, r *http.Request, req domain.AuthorizeRequest, ae *domain.AuthorizeError) {
	http.Redirect(w, r, oauth2.RedirectWith(req.RedirectURI, url.Values{"error": {ae.Code},
		"error_description": {ae.Description}, "state": {req.State}}), http.StatusFound)
}

// accessToken answers POST /login/oauth/access_token. The client
// authenticates with HTTP Basic or with client_id and client_secret in the
// form (RFC 6749 2.3.1).
func (h oauth2Provider) accessToken(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	form, err := oauth2Form(w, r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, oauth2ErrorBody{Error: domain.ErrInvalidRequest, Description: "malformed request body"})
		return
	}
	req := oauth2.TokenRequest{GrantType: form.Get("grant_type"), ClientID: form.Get("client_id"),
		ClientSecret: form.Get("client_secret"), Code: form.Get("code"), RedirectURI: form.Get("redirect_uri"),
		CodeVerifier: form.Get("code_verifier"), RefreshToken: form.Get("refresh_token")}
	if id, secret, ok := clientBasic(r); ok {
		if req.ClientID != "" && req.ClientID != id {
			writeJSON(w, http.StatusBadRequest, oauth2ErrorBody{Error: domain.ErrInvalidRequest, Description: "client_id in request body inconsistent with Authorization header"})
			return
		}
		req.ClientID, req.ClientSecret = id, secret
	}
	resp, err := h.oauth2.Token(r.Context(), req)
	if err != nil {
		var te *oauth2.TokenError
		if errors.As(err, &te) {
			writeJSON(w, http.StatusBadRequest, te)
			return
		}
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// oauth2Form reads a bounded urlencoded form, or a JSON object of strings.
func oauth2Form(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	r.Body = http.MaxBytesReader(w, r.Body, oauth2MaxFormBytes)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]string
		if err := decodeJSON(r, &m); err != nil {
			return nil, err
		}
		out := url.Values{}
		for k, v := range m {
			out.Set(k, v)
		}
		return out, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, err
	}
	return r.PostForm, nil
}

// clientBasic reads client credentials from HTTP Basic, whose halves are
// form-urlencoded (RFC 6749 2.3.1).
func clientBasic(r *http.Request) (id, secret string, ok bool) {
	rawID, rawSecret, ok := r.BasicAuth()
	if !ok {
		return "", "", false
	}
	id, err1 := url.QueryUnescape(rawID)
	secret, err2 := url.QueryUnescape(rawSecret)
	if err1 != nil || err2 != nil {
		return rawID, rawSecret, true
	}
	return id, secret, true
}

// userInfo answers the OpenID userinfo endpoint for an OAuth2 access token.
func (h oauth2Provider) userInfo(w http.ResponseWriter, r *http.Request) {
	caller, err := h.auth.Authenticate(r.Context(), httpkit.HeaderCredentials(r))
	if err != nil || caller.Method != auth.MethodOAuth2 {
		w.Header().Set("WWW-Authenticate", oauth2BearerChallenge+`, error="invalid_token"`)
		writeJSON(w, http.StatusUnauthorized, oauth2ErrorBody{Error: "invalid_token", Description: "no valid authorization"})
		return
	}
	info := h.oauth2.UserInfo(caller.User)
	info["picture"] = h.userAvatarURL(caller.User)
	writeJSON(w, http.StatusOK, info)
}

// introspect answers RFC 7662 token introspection for an authenticated client.
func (h oauth2Provider) introspect(w http.ResponseWriter, r *http.Request) {
	form, err := oauth2Form(w, r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, oauth2ErrorBody{Error: domain.ErrInvalidRequest, Description: "malformed request body"})
		return
	}
	id, secret, ok := clientBasic(r)
	if !ok {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	out, err := h.oauth2.Introspect(r.Context(), id, secret, form.Get("token"))
	if err != nil {
		var te *oauth2.TokenError
		if errors.As(err, &te) {
			w.Header().Set("WWW-Authenticate", oauth2BasicAuthRealm)
			writeJSON(w, http.StatusUnauthorized, te)
			return
		}
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// keys answers the JWKS endpoint.
func (h oauth2Provider) keys(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, h.oauth2.JWKS())
}

// openIDConfiguration answers OpenID Connect discovery.
func (h oauth2Provider) openIDConfiguration(w http.ResponseWriter, r *http.Request) {
	base := h.baseURL
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                h.oauth2.Issuer(),
		"authorization_endpoint":                base + oauth2AuthorizePath,
		"token_endpoint":                        base + oauth2TokenPath,
		"jwks_uri":                              base + oauth2KeysPath,
		"userinfo_endpoint":                     base + oauth2UserInfoPath,
		"introspection_endpoint":                base + oauth2IntrospectPath,
		"response_types_supported":              []string{"code"},
		"id_token_signing_alg_values_supported": []string{h.oauth2.SigningAlgorithm()},
		"subject_types_supported":               []string{"public"},
		"scopes_supported":                      []string{"openid", "profile", "email", "groups"},
		"claims_supported": []string{"aud", "exp", "iat", "iss", "sub", "name", "preferred_username",
			"profile", "picture", "website", "locale", "updated_at", "email", "email_verified", "groups"},
		"code_challenge_methods_supported":      []string{domain.PKCEPlain, domain.PKCES256},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post", "none"},
	})
}
