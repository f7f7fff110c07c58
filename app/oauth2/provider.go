package oauth2

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TokenError is an error of the token endpoint (RFC 6749 5.2), answered
// with 400 and this JSON body as Gitea does.
type TokenError struct {
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func (e *TokenError) Error() string { return e.Code + ": " + e.Description }

func tokenError(code, desc string) *TokenError { return &TokenError{Code: code, Description: desc} }

// Authorize answers an authorization request for the signed-in user u: it
// records the user's grant to the application and returns the redirect URI
// with a single-use code and the state. An *oauth2.AuthorizeError says what
// went wrong and whether it may be sent to the redirect URI.
func (s *Service) Authorize(ctx context.Context, u *user.User, req oauth2.AuthorizeRequest) (string, error) {
	app, err := s.CheckAuthorize(ctx, req)
	if err != nil {
		return "", err
	}
	code, err := s.secrets.TokenSecret()
	if err != nil {
		return "", err
	}
	now := s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		g, err := tx.OAuth2Grants.GetOrCreate(ctx, &oauth2.Grant{UserID: u.ID, AppID: app.ID, Scope: req.Scope,
			Nonce: req.Nonce, Created: now})
		if err != nil {
			return err
		}
		if err := tx.OAuth2Grants.DeleteExpiredCodes(ctx, now); err != nil {
			return err
		}
		return tx.OAuth2Grants.CreateCode(ctx, &oauth2.AuthCode{GrantID: g.ID, CodeHash: oauth2.HashCode(code),
			RedirectURI: req.RedirectURI, CodeChallenge: req.CodeChallenge, CodeChallengeMethod: req.Method(),
			ValidUntil: now.Add(oauth2.CodeLifetime)})
	})
	if err != nil {
		return "", err
	}
	return RedirectWith(req.RedirectURI, url.Values{"code": {code}, "state": {req.State}}), nil
}

// CheckAuthorize finds the application an authorization request names and
// checks the request against it (an *oauth2.AuthorizeError when wrong).
func (s *Service) CheckAuthorize(ctx context.Context, req oauth2.AuthorizeRequest) (*oauth2.Application, error) {
	app, err := s.stores.OAuth2Apps.GetByClientID(ctx, req.ClientID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, &oauth2.AuthorizeError{Code: oauth2.ErrUnauthorizedClient, Description: "Client ID not registered"}
	}
	if err != nil {
		return nil, err
	}
	if err := req.CheckClient(app); err != nil {
		return nil, err
	}
	return app, nil
}

// NeedsConsent reports whether the user must be asked before app gets a
// code: not when the application skips the step, nor when the user granted
// it the same scope before (Gitea's flow).
func (s *Service) NeedsConsent(ctx context.Context, u *user.User, app *oauth2.Application, req oauth2.AuthorizeRequest) (bool, error) {
	if app.SkipSecondaryAuthorization {
		return false, nil
	}
	g, err := s.stores.OAuth2Grants.GetByUserApp(ctx, u.ID, app.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return !oauth2.SameScope(g.Scope, req.Scope), nil
}

// OwnerName is the name of the account that registered app, for the
// consent page.
func (s *Service) OwnerName(ctx context.Context, app *oauth2.Application) (string, error) {
	u, err := s.stores.Users.GetByID(ctx, app.UserID)
	if err != nil {
		return "", err
	}
	return u.Name, nil
}

// Deny answers an authorization request the user refused: the redirect URI
// with error access_denied and the state (RFC 6749 4.1.2.1).
func (s *Service) Deny(ctx context.Context, req oauth2.AuthorizeRequest) (string, error) {
	if _, err := s.CheckAuthorize(ctx, req); err != nil {
		return "", err
	}
	return RedirectWith(req.RedirectURI, url.Values{"error": {oauth2.ErrAccessDenied},
		"error_description": {"the request is denied"}, "state": {req.State}}), nil
}

// RedirectWith adds the parameters to a redirect URI's query, leaving empty
// values out.
func RedirectWith(redirectURI string, params url.Values) string {
	u, err := url.Parse(redirectURI)
	if err != nil {
		return redirectURI
	}
	q := u.Query()
	for k, vs := range params {
		if len(vs) > 0 && vs[0] != "" {
			q.Set(k, vs[0])
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// TokenRequest is a request to the token endpoint.
type TokenRequest struct {
	GrantType                       string
	ClientID, ClientSecret          string
	Code, RedirectURI, CodeVerifier string
	RefreshToken                    string
}

// TokenResponse is the token endpoint's answer (RFC 6749 5.1, OIDC 3.1.3.3).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	IDToken      string `json:"id_token,omitempty"`
}

// Token answers the token endpoint: the authorization_code and
// refresh_token grants. Failures are *TokenError.
func (s *Service) Token(ctx context.Context, req TokenRequest) (TokenResponse, error) {
	switch req.GrantType {
	case "authorization_code", "refresh_token":
	default:
		return TokenResponse{}, tokenError(oauth2.ErrUnsupportedGrantType, "Only refresh_token or authorization_code grant type is supported")
	}
	app, err := s.stores.OAuth2Apps.GetByClientID(ctx, req.ClientID)
	if errors.Is(err, errs.ErrNotFound) || req.ClientID == "" {
		return TokenResponse{}, tokenError(oauth2.ErrInvalidClient, "cannot load client with client id: '"+req.ClientID+"'")
	}
	if err != nil {
		return TokenResponse{}, err
	}
	// A public client proves itself with PKCE (on the code) or holds a
	// refresh token; a confidential one must give its secret.
	if (app.Confidential || req.ClientSecret != "") && !app.SecretMatches(req.ClientSecret) {
		return TokenResponse{}, tokenError(oauth2.ErrUnauthorizedClient, "invalid client secret")
	}
	if req.GrantType == "refresh_token" {
		return s.refresh(ctx, app, req)
	}
	return s.exchangeCode(ctx, app, req)
}

func (s *Service) exchangeCode(ctx context.Context, app *oauth2.Application, req TokenRequest) (TokenResponse, error) {
	now := s.clock.Now()
	var g *oauth2.Grant
	// fail is the refusal; the transaction still commits, so a code is
	// spent by a failed exchange too and a replay's revocation sticks.
	var fail *TokenError
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		fail, g = nil, nil
		code, err := tx.OAuth2Grants.TakeCode(ctx, oauth2.HashCode(req.Code))
		if errors.Is(err, errs.ErrNotFound) {
			fail = tokenError(oauth2.ErrInvalidGrant, "client is not authorized")
			return nil
		}
		if err != nil {
			return err
		}
		if code.Used {
			// A code replayed may have been stolen: the grant and every
			// token it gave are revoked (RFC 6749 4.1.2).
			fail = tokenError(oauth2.ErrInvalidGrant, "authorization code has already been used")
			if err := tx.OAuth2Grants.Delete(ctx, code.GrantID); err != nil && !errors.Is(err, errs.ErrNotFound) {
				return err
			}
			s.bearers.forgetGrant(code.GrantID)
			return nil
		}
		if g, err = tx.OAuth2Grants.GetByID(ctx, code.GrantID); err != nil {
			return err
		}
		fail = checkCode(app, g, code, req, now)
		return nil
	})
	if err != nil {
		return TokenResponse{}, err
	}
	if fail != nil {
		return TokenResponse{}, fail
	}
	return s.issue(ctx, app, g, true)
}

// checkCode checks an unused code against the client's exchange request.
func checkCode(app *oauth2.Application, g *oauth2.Grant, code *oauth2.AuthCode, req TokenRequest, now time.Time) *TokenError {
	switch {
	case code.Expired(now):
		return tokenError(oauth2.ErrInvalidGrant, "authorization code has expired")
	case g.AppID != app.ID:
		return tokenError(oauth2.ErrInvalidGrant, "client is not authorized")
	case code.RedirectURI != req.RedirectURI:
		return tokenError(oauth2.ErrInvalidGrant, "redirect_uri does not match the authorization request")
	case !app.Confidential && code.CodeChallenge == "":
		return tokenError(oauth2.ErrUnauthorizedClient, "PKCE is required for public clients")
	case !code.VerifyPKCE(req.CodeVerifier):
		return tokenError(oauth2.ErrUnauthorizedClient, "failed PKCE code challenge")
	}
	return nil
}

func (s *Service) refresh(ctx context.Context, app *oauth2.Application, req TokenRequest) (TokenResponse, error) {
	c, err := s.signer.ParseToken(req.RefreshToken, s.clock.Now())
	if err != nil || !c.Refresh {
		return TokenResponse{}, tokenError(oauth2.ErrUnauthorizedClient, "unable to parse refresh token")
	}
	g, err := s.stores.OAuth2Grants.GetByID(ctx, c.GrantID)
	if errors.Is(err, errs.ErrNotFound) {
		return TokenResponse{}, tokenError(oauth2.ErrInvalidGrant, "grant does not exist")
	}
	if err != nil {
		return TokenResponse{}, err
	}
	if g.AppID != app.ID {
		return TokenResponse{}, tokenError(oauth2.ErrInvalidGrant, "client is not authorized")
	}
	moved, err := s.stores.OAuth2Grants.Advance(ctx, g.ID, c.Counter)
	if err != nil {
		return TokenResponse{}, err
	}
	if !moved {
		// A refresh token used twice may have been stolen: the grant and
		// every token it gave are revoked (RFC 6749 10.4).
		if err := s.stores.OAuth2Grants.Delete(ctx, g.ID); err != nil && !errors.Is(err, errs.ErrNotFound) {
			return TokenResponse{}, err
		}
		s.bearers.forgetGrant(g.ID)
		return TokenResponse{}, tokenError(oauth2.ErrInvalidGrant, "token was already used")
	}
	g.Counter = c.Counter + 1
	return s.issue(ctx, app, g, false)
}

// issue signs a new access token and refresh token for the grant, and an
// ID token when the grant asked for openid and this is a code exchange.
func (s *Service) issue(ctx context.Context, app *oauth2.Application, g *oauth2.Grant, withIDToken bool) (TokenResponse, error) {
	now := s.clock.Now()
	access, err := s.signer.SignToken(ports.OAuth2TokenClaims{GrantID: g.ID, IssuedAt: now,
		ExpiresAt: now.Add(oauth2.AccessTokenLifetime)})
	if err != nil {
		return TokenResponse{}, err
	}
	refresh, err := s.signer.SignToken(ports.OAuth2TokenClaims{GrantID: g.ID, Refresh: true, Counter: g.Counter,
		IssuedAt: now, ExpiresAt: now.Add(oauth2.RefreshTokenLifetime)})
	if err != nil {
		return TokenResponse{}, err
	}
	out := TokenResponse{AccessToken: access, TokenType: "bearer", ExpiresIn: int64(oauth2.AccessTokenLifetime.Seconds()),
		RefreshToken: refresh}
	if withIDToken && oauth2.HasScope(g.Scope, "openid") {
		u, err := s.stores.Users.GetByID(ctx, g.UserID)
		if err != nil {
			return TokenResponse{}, err
		}
		claims := map[string]any{"iss": s.issuer, "sub": strconv.FormatInt(u.ID, 10), "aud": app.ClientID,
			"iat": now.Unix(), "exp": now.Add(oauth2.AccessTokenLifetime).Unix()}
		if g.Nonce != "" {
			claims["nonce"] = g.Nonce
		}
		for k, v := range s.profileClaims(u, g.Scope) {
			claims[k] = v
		}
		if out.IDToken, err = s.signer.SignIDToken(claims); err != nil {
			return TokenResponse{}, err
		}
	}
	return out, nil
}

// profileClaims are the OpenID claims the scope releases.
func (s *Service) profileClaims(u *user.User, scope string) map[string]any {
	out := map[string]any{}
	if oauth2.HasScope(scope, "profile") {
		out["name"] = u.FullName
		out["preferred_username"] = u.Name
		out["profile"] = s.issuer + u.Name
		out["website"] = u.Website
		out["locale"] = u.Language
		out["updated_at"] = u.Updated.Unix()
	}
	if oauth2.HasScope(scope, "email") {
		out["email"] = u.Email
		out["email_verified"] = u.IsActive
	}
	return out
}

// UserInfo is the OpenID userinfo answer for a bearer token's user.
func (s *Service) UserInfo(u *user.User) map[string]any {
	out := map[string]any{"sub": strconv.FormatInt(u.ID, 10), "name": u.FullName,
		"preferred_username": u.Name, "email": u.Email, "groups": []string{}}
	return out
}

// VerifyBearer resolves an OAuth2 access token: its signature and expiry,
// then its grant, which is gone once the application or the grant was
// deleted. It returns the user and the API scopes the grant carries.
func (s *Service) VerifyBearer(ctx context.Context, raw string) (*user.User, token.Scopes, error) {
	now := s.clock.Now()
	c, err := s.signer.ParseToken(raw, now)
	if err != nil || c.Refresh {
		return nil, nil, errs.Unauthenticated("invalid username, password or token")
	}
	if e, ok := s.bearers.get(c.GrantID, now); ok {
		return e.user, e.scopes, nil
	}
	g, err := s.stores.OAuth2Grants.GetByID(ctx, c.GrantID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errs.Unauthenticated("invalid username, password or token")
	}
	if err != nil {
		return nil, nil, err
	}
	u, err := s.stores.Users.GetByID(ctx, g.UserID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errs.Unauthenticated("invalid username, password or token")
	}
	if err != nil {
		return nil, nil, err
	}
	scopes := oauth2.APIScopes(g.Scope)
	s.bearers.put(g.ID, bearerEntry{appID: g.AppID, user: u, scopes: scopes, expires: now.Add(bearerTTL)})
	return u, scopes, nil
}

// Introspect answers RFC 7662 introspection for a client that authenticates
// with its secret: whether the token is a live access or refresh token of
// one of this client's grants, and whose.
func (s *Service) Introspect(ctx context.Context, clientID, clientSecret, raw string) (map[string]any, error) {
	app, err := s.stores.OAuth2Apps.GetByClientID(ctx, clientID)
	if errors.Is(err, errs.ErrNotFound) || (err == nil && !app.SecretMatches(clientSecret)) {
		return nil, tokenError(oauth2.ErrInvalidClient, "invalid client credentials")
	}
	if err != nil {
		return nil, err
	}
	inactive := map[string]any{"active": false}
	c, err := s.signer.ParseToken(raw, s.clock.Now())
	if err != nil {
		return inactive, nil
	}
	g, err := s.stores.OAuth2Grants.GetByID(ctx, c.GrantID)
	if errors.Is(err, errs.ErrNotFound) {
		return inactive, nil
	}
	if err != nil {
		return nil, err
	}
	if g.AppID != app.ID || (c.Refresh && c.Counter != g.Counter) {
		return inactive, nil
	}
	u, err := s.stores.Users.GetByID(ctx, g.UserID)
	if err != nil {
		return inactive, nil
	}
	return map[string]any{"active": true, "scope": g.Scope, "client_id": app.ClientID, "username": u.Name,
		"sub": strconv.FormatInt(u.ID, 10), "aud": app.ClientID, "iss": s.issuer,
		"exp": c.ExpiresAt.Unix(), "iat": c.IssuedAt.Unix()}, nil
}
