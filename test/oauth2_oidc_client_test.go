package test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/matryer/is"
	"golang.org/x/oauth2"

	"github.com/depothq/depot/test/testserver"
)

// TestOAuth2OIDCClientDiscovery points a maintained OpenID Connect client
// library (coreos/go-oidc) at Depot's issuer: it reads the discovery
// document, whose issuer must be the URL it was given, fetches the key
// set, verifies an ID token Depot issued (signature, audience, issuer,
// expiry, nonce) and reads the user info endpoint with the access token;
// an ID token for another client is refused.
func TestOAuth2OIDCClientDiscovery(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	socialAccounts(t, srv, "alice")
	alice := userClient(srv, "alice")
	const cb = "https://app.example/callback"
	app, _, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "oidc-client", RedirectURIs: []string{cb}})
	is.NoErr(err)

	ctx := oidc.ClientContext(t.Context(), http.DefaultClient)
	provider, err := oidc.NewProvider(ctx, srv.URL+"/")
	is.NoErr(err) // the discovery document names this issuer
	is.Equal(provider.Endpoint().AuthURL, srv.URL+"/login/oauth/authorize")
	is.Equal(provider.Endpoint().TokenURL, srv.URL+"/login/oauth/access_token")

	verifier := strings.Repeat("x", 43)
	sum := sha256.Sum256([]byte(verifier))
	code := oauth2Code(t, srv, url.Values{"response_type": {"code"}, "client_id": {app.ClientID},
		"redirect_uri": {cb}, "state": {"st"}, "scope": {"openid profile"}, "nonce": {"n-oidc"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}})
	status, tok := oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID},
		"code": {code}, "redirect_uri": {cb}, "code_verifier": {verifier}})
	is.Equal(status, http.StatusOK)

	idToken, err := provider.Verifier(&oidc.Config{ClientID: app.ClientID}).Verify(ctx, tok.IDToken)
	is.NoErr(err)
	is.Equal(idToken.Nonce, "n-oidc")
	var claims struct {
		PreferredUsername string `json:"preferred_username"`
	}
	is.NoErr(idToken.Claims(&claims))
	is.Equal(claims.PreferredUsername, "alice")

	_, err = provider.Verifier(&oidc.Config{ClientID: "another-client"}).Verify(ctx, tok.IDToken)
	is.True(err != nil) // the audience is the client the token was issued to

	info, err := provider.UserInfo(ctx, oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok.AccessToken}))
	is.NoErr(err)
	is.Equal(info.Subject, idToken.Subject)
}
