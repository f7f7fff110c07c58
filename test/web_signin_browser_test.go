package test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/chromedp/chromedp"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// webBrowser starts Debian's headless Chromium driven over the DevTools
// protocol (chromedp) and returns its context. Without Chromium the test
// is skipped, except in CI, whose .ci/run installs it, as
// TestAPIPageInBrowser does.
func webBrowser(t *testing.T) context.Context {
	t.Helper()
	browser := chromiumPath(t)
	profile, err := os.MkdirTemp("", "depot-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Removed last, once the browser has exited.
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(profile))
	// A bound on a stuck browser, not a measure: the flow takes seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, _ := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		_ = chromedp.Cancel(bctx) // closes the browser and waits for it
		cancelAlloc()
		cancel()
	})
	if err := chromedp.Run(bctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return bctx
}

// webCallback is the client application's redirect URI: a page that shows
// it was reached.
func webCallback(t *testing.T) string {
	t.Helper()
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!DOCTYPE html><title>client</title><p id="callback-reached">back at the client</p>`))
	}))
	t.Cleanup(cb.Close)
	return cb.URL + "/callback"
}

// webAuthorizeURL is an authorization request with PKCE (S256); it returns
// the URL and the verifier.
func webAuthorizeURL(srv *testserver.Server, clientID, redirectURI, scope, state string) (string, string) {
	verifier := "browser-flow-verifier-" + strings.Repeat("x", 30) + state
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirectURI},
		"state": {state}, "scope": {scope}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"}}
	return srv.URL + "/login/oauth/authorize?" + q.Encode(), verifier
}

// webLandedAt reads the browser's location once the client's page shows,
// and returns its query after checking it is the redirect URI.
func webLandedAt(t *testing.T, ctx context.Context, redirectURI string) url.Values {
	t.Helper()
	var loc string
	if err := chromedp.Run(ctx, chromedp.WaitVisible("#callback-reached", chromedp.ByID), chromedp.Location(&loc)); err != nil {
		t.Fatalf("did not land at the client: %v", err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Scheme + "://" + u.Host + u.Path; got != redirectURI {
		t.Fatalf("landed at %s, want %s", got, redirectURI)
	}
	return u.Query()
}

// webExchange trades a code for tokens and calls the API with the bearer
// token as name.
func webExchange(t *testing.T, srv *testserver.Server, clientID, redirectURI, code, verifier, name string) {
	t.Helper()
	is := is.New(t)
	status, tok := oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {clientID},
		"code": {code}, "redirect_uri": {redirectURI}, "code_verifier": {verifier}})
	is.Equal(status, http.StatusOK)
	is.True(tok.AccessToken != "")
	r := srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken)
	is.Equal(r.Status, http.StatusOK)
	var me gitea.User
	r.Decode(t, &me)
	is.Equal(me.UserName, name)
}

// TestWebSignInAuthorizeInBrowser runs the authorization-code flow with PKCE
// in headless Chromium: authorize sends the browser to sign in, the user
// types a password, the consent page names the application and the scopes,
// Grant lands at the client with the code and the state, which trade for a
// bearer token the API takes. A second request with the same scopes skips
// consent; one with other scopes asks again, and Deny lands with
// error=access_denied.
func TestWebSignInAuthorizeInBrowser(t *testing.T) {
	t.Parallel()
	ctx := webBrowser(t)
	srv := testserver.Start(t)
	socialAccounts(t, srv, "alice")
	cb := webCallback(t)
	app, _, err := userClient(srv, "alice").CreateOauth2(gitea.CreateOauth2Option{Name: "Notes app", RedirectURIs: []string{cb}})
	if err != nil {
		t.Fatal(err)
	}
	is := is.New(t)

	authURL, verifier := webAuthorizeURL(srv, app.ClientID, cb, "read:user read:repository", "state-one")
	var signInAt, appName, scopes string
	err = chromedp.Run(ctx,
		chromedp.Navigate(authURL),
		chromedp.WaitVisible("#user_name", chromedp.ByID),
		chromedp.Location(&signInAt),
		chromedp.SendKeys("#user_name", "alice", chromedp.ByID),
		chromedp.SendKeys("#password", userPassword, chromedp.ByID),
		chromedp.Click("#sign-in", chromedp.ByID),
		chromedp.WaitVisible("#grant", chromedp.ByID),
		chromedp.Text("#app-name", &appName, chromedp.ByID),
		chromedp.Text("#scopes", &scopes, chromedp.ByID),
	)
	is.NoErr(err)
	is.True(strings.HasPrefix(signInAt, srv.URL+"/user/login?redirect_to="))
	is.Equal(appName, "Notes app")
	is.True(strings.Contains(scopes, "read:user") && strings.Contains(scopes, "read:repository"))
	is.NoErr(chromedp.Run(ctx, chromedp.Click("#grant", chromedp.ByID)))
	q := webLandedAt(t, ctx, cb)
	is.Equal(q.Get("state"), "state-one")
	is.True(q.Get("code") != "")
	webExchange(t, srv, app.ClientID, cb, q.Get("code"), verifier, "alice")

	// The same scopes again: granted before, so no consent page.
	authURL, verifier = webAuthorizeURL(srv, app.ClientID, cb, "read:repository read:user", "state-two")
	is.NoErr(chromedp.Run(ctx, chromedp.Navigate(authURL)))
	q = webLandedAt(t, ctx, cb)
	is.Equal(q.Get("state"), "state-two")
	webExchange(t, srv, app.ClientID, cb, q.Get("code"), verifier, "alice")

	// Other scopes: asked again; Deny.
	authURL, _ = webAuthorizeURL(srv, app.ClientID, cb, "write:repository", "state-three")
	is.NoErr(chromedp.Run(ctx, chromedp.Navigate(authURL), chromedp.WaitVisible("#deny", chromedp.ByID),
		chromedp.Click("#deny", chromedp.ByID)))
	q = webLandedAt(t, ctx, cb)
	is.Equal(q.Get("error"), "access_denied")
	is.Equal(q.Get("state"), "state-three")
	is.Equal(q.Get("code"), "")
}

// TestWebSignInTOTPInBrowser signs in an account with two-factor sign-in in
// headless Chromium: after the password the passcode page asks for the
// one-time code; a wrong one is refused on the page, the right one leads
// on to the consent page and, granted, to the client with a code.
func TestWebSignInTOTPInBrowser(t *testing.T) {
	t.Parallel()
	ctx := webBrowser(t)
	srv := testserver.Start(t)
	socialAccounts(t, srv, "bob")
	cb := webCallback(t)
	app, _, err := userClient(srv, "bob").CreateOauth2(gitea.CreateOauth2Option{Name: "Board", ConfidentialClient: true,
		RedirectURIs: []string{cb}})
	if err != nil {
		t.Fatal(err)
	}
	secret := authTOTPSecret(t, srv, "bob")
	is := is.New(t)
	authURL, verifier := webAuthorizeURL(srv, app.ClientID, cb, "openid read:user", "totp-state")
	var wrong, appName string
	err = chromedp.Run(ctx,
		chromedp.Navigate(authURL),
		chromedp.WaitVisible("#user_name", chromedp.ByID),
		chromedp.SendKeys("#user_name", "bob", chromedp.ByID),
		chromedp.SendKeys("#password", userPassword, chromedp.ByID),
		chromedp.Click("#sign-in", chromedp.ByID),
		chromedp.WaitVisible("#passcode", chromedp.ByID),
		chromedp.SendKeys("#passcode", authWrongTOTPCode(t, secret), chromedp.ByID),
		chromedp.Click("#verify", chromedp.ByID),
		chromedp.WaitVisible("#error", chromedp.ByID),
		chromedp.Text("#error", &wrong, chromedp.ByID),
		chromedp.SendKeys("#passcode", authTOTPCode(t, secret), chromedp.ByID),
		chromedp.Click("#verify", chromedp.ByID),
		chromedp.WaitVisible("#grant", chromedp.ByID),
		chromedp.Text("#app-name", &appName, chromedp.ByID),
		chromedp.Click("#grant", chromedp.ByID),
	)
	is.NoErr(err)
	is.Equal(wrong, "Passcode incorrect.")
	is.Equal(appName, "Board")
	q := webLandedAt(t, ctx, cb)
	is.Equal(q.Get("state"), "totp-state")
	status, tok := oauth2Token(t, srv, url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID},
		"client_secret": {app.ClientSecret}, "code": {q.Get("code")}, "redirect_uri": {cb}, "code_verifier": {verifier}})
	is.Equal(status, http.StatusOK)
	r := srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.AccessToken)
	is.Equal(r.Status, http.StatusOK)
}
