package test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// reverseProxyServer starts a server with reverse-proxy authentication on,
// trusting the addresses given (the tests connect from 127.0.0.1).
func reverseProxyServer(t *testing.T, autoRegister bool, trusted ...string) *testserver.Server {
	t.Helper()
	return testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.ReverseProxy.Enabled = true
		s.ReverseProxy.AutoRegistration = autoRegister
		s.ReverseProxy.UseEmail = true
		s.ReverseProxy.UseFullName = true
		s.ReverseProxy.TrustedProxies = trusted
	}))
}

// TestReverseProxyAuth: a request from a trusted proxy address runs as the
// user its X-WEBAUTH-USER header names, and may manage that user's access
// tokens (core reference 5.7); an unknown name is refused without
// auto-registration.
func TestReverseProxyAuth(t *testing.T) {
	t.Parallel()
	srv := reverseProxyServer(t, false, "127.0.0.0/8", "::1")
	socialAccounts(t, srv, "alice")
	is := is.New(t)

	r := srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "alice")
	is.Equal(r.Status, http.StatusOK)
	var me gitea.User
	r.Decode(t, &me)
	is.Equal(me.UserName, "alice")

	// Token management takes reverse-proxy authentication as it takes Basic.
	r = srv.Do("POST", "/users/alice/tokens", map[string]any{"name": "via-proxy", "scopes": []string{"read:user"}},
		"X-WEBAUTH-USER", "alice")
	is.Equal(r.Status, http.StatusCreated)
	var tok gitea.AccessToken
	r.Decode(t, &tok)
	is.True(tok.Token != "")
	is.Equal(srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token).Status, http.StatusOK)
	r = srv.Do("GET", "/users/alice/tokens", nil, "X-WEBAUTH-USER", "alice")
	is.Equal(r.Status, http.StatusOK)
	// Another user's tokens stay another's.
	is.Equal(srv.Do("GET", "/users/admin/tokens", nil, "X-WEBAUTH-USER", "alice").Status, http.StatusForbidden)

	// Credentials that come earlier in the order win over the header.
	r = srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "alice", "Authorization", "token "+tok.Token)
	is.Equal(r.Status, http.StatusOK)

	// Unknown account, no auto-registration: refused.
	is.Equal(srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "nobody").Status, http.StatusUnauthorized)
	is.Equal(srv.Do("GET", "/users/nobody", nil, socialAdmin(srv)...).Status, http.StatusNotFound)
}

// TestReverseProxyAuthUntrusted: from an address not trusted, the header is
// ignored: the request is anonymous and cannot make tokens.
func TestReverseProxyAuthUntrusted(t *testing.T) {
	t.Parallel()
	srv := reverseProxyServer(t, true, "10.0.0.0/8")
	socialAccounts(t, srv, "alice")
	is := is.New(t)
	r := srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "alice")
	is.Equal(r.Status, http.StatusUnauthorized)
	r = srv.Do("POST", "/users/alice/tokens", map[string]any{"name": "spoofed", "scopes": []string{"all"}},
		"X-WEBAUTH-USER", "alice")
	is.Equal(r.Status, http.StatusUnauthorized)
	// Nor does it register anyone.
	is.Equal(srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "mallory").Status, http.StatusUnauthorized)
	is.Equal(srv.Do("GET", "/users/mallory", nil, socialAdmin(srv)...).Status, http.StatusNotFound)
}

// TestReverseProxyAuthOffByDefault: with the default settings the header
// means nothing, even from loopback.
func TestReverseProxyAuthOffByDefault(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "alice")
	is.New(t).Equal(srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "alice").Status, http.StatusUnauthorized)
}

// TestReverseProxyAutoRegistration: the first request naming an unknown
// user creates the account, with the e-mail address and full name of their
// headers, and runs as it; it has no password.
func TestReverseProxyAutoRegistration(t *testing.T) {
	t.Parallel()
	srv := reverseProxyServer(t, true, "127.0.0.1")
	is := is.New(t)
	r := srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "carol", "X-WEBAUTH-EMAIL", "carol@proxy.example",
		"X-WEBAUTH-FULLNAME", "Carol Proxy")
	is.Equal(r.Status, http.StatusOK)
	var me gitea.User
	r.Decode(t, &me)
	is.Equal(me.UserName, "carol")
	is.Equal(me.Email, "carol@proxy.example")
	is.Equal(me.FullName, "Carol Proxy")
	// Known now: the second request finds it.
	r = srv.Do("GET", "/users/carol", nil, socialAdmin(srv)...)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "carol").Status, http.StatusOK)
	// No password: Basic cannot sign in as it.
	is.Equal(srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("carol", "")).Status, http.StatusUnauthorized)
	// A name that is no valid account name registers nothing.
	is.Equal(srv.Do("GET", "/user", nil, "X-WEBAUTH-USER", "bad name!").Status, http.StatusUnauthorized)
}

// TestReverseProxyAuthConsent: a browser behind the trusted proxy is signed
// in on the authorize page: it sees the consent page without the sign-in
// form, and its grant (with the page's CSRF token) lands at the client.
func TestReverseProxyAuthConsent(t *testing.T) {
	t.Parallel()
	srv := reverseProxyServer(t, false, "127.0.0.1")
	socialAccounts(t, srv, "alice")
	is := is.New(t)
	const cb = "https://app.example/cb"
	app, _, err := userClient(srv, "alice").CreateOauth2(gitea.CreateOauth2Option{Name: "proxied", ConfidentialClient: true,
		RedirectURIs: []string{cb}})
	is.NoErr(err)
	c := webClient(t)
	q := url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {cb}, "state": {"p"}}
	req, err := http.NewRequest("GET", srv.URL+"/login/oauth/authorize?"+q.Encode(), nil)
	is.NoErr(err)
	req.Header.Set("X-WEBAUTH-USER", "alice")
	resp, err := c.Do(req)
	is.NoErr(err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusOK)
	is.True(strings.Contains(string(body), `id="grant"`))

	form := url.Values{"client_id": {app.ClientID}, "redirect_uri": {cb}, "response_type": {"code"}, "state": {"p"},
		"granted": {"true"}, "_csrf": {webCSRF(t, string(body))}}
	req, err = http.NewRequest("POST", srv.URL+"/login/oauth/grant", strings.NewReader(form.Encode()))
	is.NoErr(err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-WEBAUTH-USER", "alice")
	resp, err = c.Do(req)
	is.NoErr(err)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusSeeOther)
	is.True(strings.HasPrefix(resp.Header.Get("Location"), cb+"?code="))
}
