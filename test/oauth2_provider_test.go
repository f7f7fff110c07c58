package test

import (
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/golang-jwt/jwt/v5"
	"github.com/matryer/is"
)

// oauth2Tokens is the token endpoint's answer.
type oauth2Tokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	IDToken      string `json:"id_token"`
	Error        string `json:"error"`
}

// oauth2Authorize calls the authorize endpoint with the header pair and
// returns the answer, redirects not followed.
func oauth2Authorize(srv *testserver.Server, q url.Values, header ...string) testserver.Response {
	return srv.Do("GET", srv.URL+"/login/oauth/authorize?"+q.Encode(), nil, header...)
}

// oauth2Code authorizes as alice and returns the code of the redirect,
// checking the state comes back.
func oauth2Code(t *testing.T, srv *testserver.Server, q url.Values) string {
	t.Helper()
	r := oauth2Authorize(srv, q, basicAs("alice")...)
	if r.Status != http.StatusFound {
		t.Fatalf("authorize: %d %s", r.Status, r.Body)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != q.Get("redirect_uri") {
		t.Fatalf("redirected to %s", got)
	}
	if loc.Query().Get("state") != q.Get("state") {
		t.Fatalf("state %q", loc.Query().Get("state"))
	}
	return loc.Query().Get("code")
}

// oauth2Token posts a form to the token endpoint.
func oauth2Token(t *testing.T, srv *testserver.Server, form url.Values, header ...string) (int, oauth2Tokens) {
	t.Helper()
	r := srv.Do("POST", srv.URL+"/login/oauth/access_token", form.Encode(),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)...)
	var out oauth2Tokens
	r.Decode(t, &out)
	return r.Status, out
}

// TestOAuth2Provider runs the authorization-code flow with PKCE for a public
// and a confidential client, calls the API with the bearer token, rotates
// refresh tokens, and checks the refusals, on both backends.
func TestOAuth2Provider(t *testing.T) {
	t.Parallel()
	backends(t, testOAuth2Provider)
}

func testOAuth2Provider(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "mallory")
	alice := userClient(srv, "alice")
	is := is.New(t)
	const cb = "https://app.example/callback"
	public, _, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "cli", RedirectURIs: []string{cb}})
	is.NoErr(err)
	conf, _, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "web", ConfidentialClient: true, RedirectURIs: []string{cb}})
	is.NoErr(err)

	verifier := strings.Repeat("v", 20) + "-pkce-verifier-0123456789abcdef"
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	authQuery := func(clientID, scope string) url.Values {
		return url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {cb},
			"state": {"st-1"}, "scope": {scope}, "nonce": {"n-1"},
			"code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	}

	t.Run("public client with PKCE, bearer calls, refresh rotation", func(t *testing.T) {
		is := is.New(t)
		code := oauth2Code(t, srv, authQuery(public.ClientID, "openid profile email"))
		exchange := url.Values{"grant_type": {"authorization_code"}, "client_id": {public.ClientID},
			"code": {code}, "redirect_uri": {cb}, "code_verifier": {verifier}}
		status, tok := oauth2Token(t, srv, exchange)
		is.Equal(status, http.StatusOK)
		is.Equal(tok.TokenType, "bearer")
		is.Equal(tok.ExpiresIn, int64(3600))
		is.True(tok.RefreshToken != "" && tok.IDToken != "")

		// The bearer token is a credential of the whole API.
		r := srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken)
		is.Equal(r.Status, http.StatusOK)
		var me gitea.User
		r.Decode(t, &me)
		is.Equal(me.UserName, "alice")

		// The ID token verifies with the published key set.
		var keys struct {
			Keys []struct{ Kid, N, E string }
		}
		srv.Do("GET", srv.URL+"/login/oauth/keys", nil).Decode(t, &keys)
		is.Equal(len(keys.Keys), 1)
		n, _ := base64.RawURLEncoding.DecodeString(keys.Keys[0].N)
		e, _ := base64.RawURLEncoding.DecodeString(keys.Keys[0].E)
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		claims := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(tok.IDToken, claims, func(*jwt.Token) (any, error) { return pub, nil },
			jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(public.ClientID), jwt.WithIssuer(srv.URL+"/"))
		is.NoErr(err)
		is.Equal(claims["nonce"], "n-1")
		is.Equal(claims["preferred_username"], "alice")

		var info map[string]any
		r = srv.Do("GET", srv.URL+"/login/oauth/userinfo", nil, "Authorization", "Bearer "+tok.AccessToken)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &info)
		is.Equal(info["preferred_username"], "alice")
		is.Equal(srv.Do("GET", srv.URL+"/login/oauth/userinfo", nil, basicAs("alice")...).Status, http.StatusUnauthorized)

		// Refresh: a new pair; the old refresh token used again revokes
		// the grant, and with it every access token.
		refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {public.ClientID}, "refresh_token": {tok.RefreshToken}}
		status, fresh := oauth2Token(t, srv, refresh)
		is.Equal(status, http.StatusOK)
		is.True(fresh.RefreshToken != tok.RefreshToken)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+fresh.AccessToken).Status, http.StatusOK)
		status, reused := oauth2Token(t, srv, refresh)
		is.Equal(status, http.StatusBadRequest)
		is.Equal(reused.Error, "invalid_grant")
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+fresh.AccessToken).Status, http.StatusUnauthorized)
		status, _ = oauth2Token(t, srv, url.Values{"grant_type": {"refresh_token"}, "client_id": {public.ClientID},
			"refresh_token": {fresh.RefreshToken}})
		is.Equal(status, http.StatusBadRequest)
	})

	t.Run("confidential client, client authentication and scopes", func(t *testing.T) {
		is := is.New(t)
		q := authQuery(conf.ClientID, "read:repository")
		q.Del("code_challenge")
		q.Del("code_challenge_method")
		code := oauth2Code(t, srv, q)
		exchange := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {cb}}
		status, bad := oauth2Token(t, srv, exchange, "Authorization", testserver.Basic(conf.ClientID, "gto_wrong"))
		is.Equal(status, http.StatusBadRequest)
		is.Equal(bad.Error, "unauthorized_client")
		status, tok := oauth2Token(t, srv, exchange, "Authorization", testserver.Basic(conf.ClientID, conf.ClientSecret))
		is.Equal(status, http.StatusOK)
		is.Equal(tok.IDToken, "") // no openid scope
		// The grant's API scopes bind the token like an access token's.
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusForbidden)
		is.Equal(srv.Do("GET", "/repos/search", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusOK)

		// A refresh token is refused to another client and with a wrong secret.
		status, _ = oauth2Token(t, srv, url.Values{"grant_type": {"refresh_token"}, "client_id": {public.ClientID},
			"refresh_token": {tok.RefreshToken}})
		is.Equal(status, http.StatusBadRequest)
		status, _ = oauth2Token(t, srv, url.Values{"grant_type": {"refresh_token"}, "client_id": {conf.ClientID},
			"client_secret": {"nope"}, "refresh_token": {tok.RefreshToken}})
		is.Equal(status, http.StatusBadRequest)
		status, _ = oauth2Token(t, srv, url.Values{"grant_type": {"refresh_token"}, "client_id": {conf.ClientID},
			"client_secret": {conf.ClientSecret}, "refresh_token": {tok.RefreshToken}})
		is.Equal(status, http.StatusOK)

		// Deleting the application revokes its tokens.
		other, _, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "short-lived", ConfidentialClient: true, RedirectURIs: []string{cb}})
		is.NoErr(err)
		code = oauth2Code(t, srv, authQuery(other.ClientID, ""))
		status, tok = oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {cb},
			"client_id": {other.ClientID}, "client_secret": {other.ClientSecret}, "code_verifier": {verifier}})
		is.Equal(status, http.StatusOK)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusOK)
		_, err = alice.DeleteOauth2(other.ID)
		is.NoErr(err)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusUnauthorized)
	})

	t.Run("refusals", func(t *testing.T) {
		is := is.New(t)
		q := authQuery(public.ClientID, "")
		// Sign-in: a browser (no Authorization) is sent to the sign-in
		// page, which comes back here; a token caller is asked for a password.
		r := oauth2Authorize(srv, q)
		is.Equal(r.Status, http.StatusSeeOther)
		is.Equal(r.Header.Get("Location"), "/user/login?"+url.Values{"redirect_to": {"/login/oauth/authorize?" + q.Encode()}}.Encode())
		r = oauth2Authorize(srv, q, tokenHeader(srv, "alice", "all")...)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.True(r.Header.Get("WWW-Authenticate") != "")
		// Unknown client and unregistered redirect URI: 400, never redirected.
		bad := authQuery("00000000-0000-0000-0000-000000000000", "")
		r = oauth2Authorize(srv, bad, basicAs("alice")...)
		is.Equal(r.Status, http.StatusBadRequest)
		bad = authQuery(public.ClientID, "")
		bad.Set("redirect_uri", "https://evil.example/cb")
		r = oauth2Authorize(srv, bad, basicAs("alice")...)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.Header.Get("Location"), "")
		// A public client without PKCE: the error goes to the client.
		bad = authQuery(public.ClientID, "")
		bad.Del("code_challenge")
		bad.Del("code_challenge_method")
		r = oauth2Authorize(srv, bad, basicAs("alice")...)
		is.Equal(r.Status, http.StatusFound)
		loc, _ := url.Parse(r.Header.Get("Location"))
		is.Equal(loc.Query().Get("error"), "invalid_request")
		is.Equal(loc.Query().Get("state"), "st-1")
		// A code is single use: a replay is refused and revokes the grant.
		code := oauth2Code(t, srv, q)
		exchange := url.Values{"grant_type": {"authorization_code"}, "client_id": {public.ClientID},
			"code": {code}, "redirect_uri": {cb}, "code_verifier": {verifier}}
		status, tok := oauth2Token(t, srv, exchange)
		is.Equal(status, http.StatusOK)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusOK)
		status, replay := oauth2Token(t, srv, exchange)
		is.Equal(status, http.StatusBadRequest)
		is.Equal(replay.Error, "invalid_grant")
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken).Status, http.StatusUnauthorized)
		// PKCE mismatch and a wrong redirect URI at the token endpoint; a
		// failed exchange spends the code.
		code = oauth2Code(t, srv, q)
		status, tok = oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {public.ClientID},
			"code": {code}, "redirect_uri": {cb}, "code_verifier": {verifier + "x"}})
		is.Equal(status, http.StatusBadRequest)
		is.Equal(tok.Error, "unauthorized_client")
		status, tok = oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {public.ClientID},
			"code": {code}, "redirect_uri": {cb}, "code_verifier": {verifier}})
		is.Equal(status, http.StatusBadRequest)
		is.Equal(tok.Error, "invalid_grant")
		code = oauth2Code(t, srv, q)
		status, _ = oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {public.ClientID},
			"code": {code}, "redirect_uri": {cb + "/other"}, "code_verifier": {verifier}})
		is.Equal(status, http.StatusBadRequest)
		status, tok = oauth2Token(t, srv, url.Values{"grant_type": {"password"}, "client_id": {public.ClientID}})
		is.Equal(status, http.StatusBadRequest)
		is.Equal(tok.Error, "unsupported_grant_type")
		// Forged bearer tokens: alg none and garbage.
		none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"gnt": 1, "tt": 0,
			"exp": time.Now().Add(time.Hour).Unix()}).SignedString(jwt.UnsafeAllowNoneSignatureType)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+none).Status, http.StatusUnauthorized)
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer a.b.c").Status, http.StatusUnauthorized)
		// Plain access tokens keep working as Bearer.
		is.Equal(srv.Do("GET", "/user", nil, "Authorization", "Bearer "+srv.CreateToken("alice", userPassword, "read:user")).Status, http.StatusOK)
	})

	t.Run("introspection", func(t *testing.T) {
		is := is.New(t)
		code := oauth2Code(t, srv, authQuery(conf.ClientID, "read:user"))
		status, tok := oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {cb},
			"code_verifier": {verifier}}, "Authorization", testserver.Basic(conf.ClientID, conf.ClientSecret))
		is.Equal(status, http.StatusOK)
		introspect := func(tokenValue, secret string) (int, map[string]any) {
			r := srv.Do("POST", srv.URL+"/login/oauth/introspect", url.Values{"token": {tokenValue}}.Encode(),
				"Content-Type", "application/x-www-form-urlencoded", "Authorization", testserver.Basic(conf.ClientID, secret))
			var out map[string]any
			r.Decode(t, &out)
			return r.Status, out
		}
		status, out := introspect(tok.AccessToken, conf.ClientSecret)
		is.Equal(status, http.StatusOK)
		is.Equal(out["active"], true)
		is.Equal(out["username"], "alice")
		is.Equal(out["scope"], "read:user")
		status, out = introspect("not.a.token", conf.ClientSecret)
		is.Equal(status, http.StatusOK)
		is.Equal(out["active"], false)
		status, _ = introspect(tok.AccessToken, "wrong")
		is.Equal(status, http.StatusUnauthorized)
	})

	t.Run("discovery", func(t *testing.T) {
		is := is.New(t)
		var doc map[string]any
		r := srv.Do("GET", srv.URL+"/.well-known/openid-configuration", nil)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &doc)
		is.Equal(doc["issuer"], srv.URL+"/")
		is.Equal(doc["token_endpoint"], srv.URL+"/login/oauth/access_token")
		is.Equal(doc["jwks_uri"], srv.URL+"/login/oauth/keys")
	})
}
