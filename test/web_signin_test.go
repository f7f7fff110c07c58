package test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// webClient is a browser-like client: it keeps cookies and does not follow
// redirects.
func webClient(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// webGet and webPost return the status, the headers and the body.
func webGet(t *testing.T, c *http.Client, u string) (int, http.Header, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func webPost(t *testing.T, c *http.Client, u string, form url.Values) (int, http.Header, string) {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

var webCSRFPattern = regexp.MustCompile(`name="_csrf" value="([0-9a-f]+)"`)

// webCSRF reads a page's CSRF token.
func webCSRF(t *testing.T, body string) string {
	t.Helper()
	m := webCSRFPattern.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token in %.500s", body)
	}
	return m[1]
}

// TestWebSignIn checks the sign-in page over plain HTTP: its headers (a
// strict CSP, a session cookie HttpOnly and SameSite=Lax, a viewport), the
// refusal of a form without the session's CSRF token, a wrong password
// answered with the form and an error and no session, then a sign-in and
// sign-out.
func TestWebSignIn(t *testing.T) {
	t.Parallel()
	backends(t, testWebSignIn)
}

func testWebSignIn(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice")
	is := is.New(t)
	c := webClient(t)

	status, h, body := webGet(t, c, srv.URL+"/user/login")
	is.Equal(status, http.StatusOK)
	is.Equal(h.Get("Content-Type"), "text/html; charset=utf-8")
	csp := h.Get("Content-Security-Policy")
	is.True(strings.HasPrefix(csp, "default-src 'none'; style-src 'nonce-"))
	is.True(strings.Contains(csp, "form-action 'self'"))
	is.True(strings.Contains(body, `<meta name="viewport" content="width=device-width, initial-scale=1">`))
	is.True(!strings.Contains(body, "<script"))
	cookie := h.Get("Set-Cookie")
	is.True(strings.HasPrefix(cookie, "depot_session="))
	is.True(strings.Contains(cookie, "HttpOnly") && strings.Contains(cookie, "SameSite=Lax"))
	is.True(!strings.Contains(cookie, "Secure")) // the test site is plain http
	csrf := webCSRF(t, body)

	// Without the CSRF token, or with another, nothing is signed in.
	for _, token := range []string{"", strings.Repeat("0", 64)} {
		status, h, _ = webPost(t, c, srv.URL+"/user/login", url.Values{"_csrf": {token}, "user_name": {"alice"},
			"password": {userPassword}})
		is.Equal(status, http.StatusBadRequest)
		is.Equal(h.Get("Set-Cookie"), "")
	}
	// A form from a browser without the session (another site's): 400.
	status, _, _ = webPost(t, webClient(t), srv.URL+"/user/login", url.Values{"_csrf": {csrf}, "user_name": {"alice"},
		"password": {userPassword}})
	is.Equal(status, http.StatusBadRequest)
	_, _, body = webGet(t, c, srv.URL+"/user/login")
	is.True(strings.Contains(body, `id="user_name"`)) // still signed out

	// A wrong password: the form again with an error, no new session.
	status, h, body = webPost(t, c, srv.URL+"/user/login", url.Values{"_csrf": {csrf}, "user_name": {"alice"},
		"password": {"wrong-password"}})
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(body, "Username or password is incorrect."))
	is.True(strings.Contains(body, `value="alice"`))
	is.Equal(h.Get("Set-Cookie"), "")
	_, _, body = webGet(t, c, srv.URL+"/user/login")
	is.True(strings.Contains(body, `id="user_name"`))

	// The e-mail address signs in too; the session is replaced.
	status, h, _ = webPost(t, c, srv.URL+"/user/login", url.Values{"_csrf": {csrf}, "user_name": {"alice@example.com"},
		"password": {userPassword}, "redirect_to": {"//evil.example/"}})
	is.Equal(status, http.StatusSeeOther)
	is.Equal(h.Get("Location"), "/user/login") // an off-site redirect_to is dropped
	is.True(strings.HasPrefix(h.Get("Set-Cookie"), "depot_session="))
	status, _, body = webGet(t, c, srv.URL+"/user/login")
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(body, `<strong id="signed-in-user">alice</strong>`))
	// The old CSRF token was the old session's.
	status, _, _ = webPost(t, c, srv.URL+"/user/logout", url.Values{"_csrf": {csrf}})
	is.Equal(status, http.StatusBadRequest)
	status, _, _ = webPost(t, c, srv.URL+"/user/logout", url.Values{"_csrf": {webCSRF(t, body)}})
	is.Equal(status, http.StatusSeeOther)
	_, _, body = webGet(t, c, srv.URL+"/user/login")
	is.True(strings.Contains(body, `id="user_name"`))
}

// TestWebAuthorizeRefusals checks the authorize endpoint's answers to a
// browser that need no sign-in: an unknown client and an unregistered
// redirect URI are a 400 page, never a redirect; and the consent form
// refuses a post without the session's CSRF token.
func TestWebAuthorizeRefusals(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "alice")
	is := is.New(t)
	const cb = "https://app.example/cb"
	app, _, err := userClient(srv, "alice").CreateOauth2(gitea.CreateOauth2Option{Name: "web", ConfidentialClient: true,
		RedirectURIs: []string{cb}})
	is.NoErr(err)
	c := webClient(t)
	q := url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {"https://evil.example/cb"},
		"state": {"s"}}
	status, h, body := webGet(t, c, srv.URL+"/login/oauth/authorize?"+q.Encode())
	is.Equal(status, http.StatusBadRequest)
	is.Equal(h.Get("Location"), "")
	is.True(strings.Contains(body, "Unregistered Redirect URI"))
	q.Set("client_id", "00000000-0000-0000-0000-000000000000")
	status, h, _ = webGet(t, c, srv.URL+"/login/oauth/authorize?"+q.Encode())
	is.Equal(status, http.StatusBadRequest)
	is.Equal(h.Get("Location"), "")

	// Signed in, with the consent page's token, the grant goes through;
	// without it, 400 and no code.
	_, _, body = webGet(t, c, srv.URL+"/user/login")
	status, _, _ = webPost(t, c, srv.URL+"/user/login", url.Values{"_csrf": {webCSRF(t, body)}, "user_name": {"alice"},
		"password": {userPassword}})
	is.Equal(status, http.StatusSeeOther)
	q = url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {cb}, "state": {"s"},
		"scope": {"read:user"}}
	status, h, body = webGet(t, c, srv.URL+"/login/oauth/authorize?"+q.Encode())
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(h.Get("Content-Security-Policy"), "form-action 'self' https://app.example;"))
	form := url.Values{"client_id": {app.ClientID}, "redirect_uri": {cb}, "response_type": {"code"}, "state": {"s"},
		"scope": {"read:user"}, "granted": {"true"}}
	status, h, _ = webPost(t, c, srv.URL+"/login/oauth/grant", form)
	is.Equal(status, http.StatusBadRequest)
	is.Equal(h.Get("Location"), "")
	form.Set("_csrf", webCSRF(t, body))
	status, h, _ = webPost(t, c, srv.URL+"/login/oauth/grant", form)
	is.Equal(status, http.StatusSeeOther)
	is.True(strings.HasPrefix(h.Get("Location"), cb+"?code="))
}
