package http_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// benchBearer runs the authorization-code flow of a confidential client as
// the administrator, through the handler, and returns the access token.
func (a benchApp) benchBearer(b *testing.B, scope string) string {
	b.Helper()
	const cb = "https://app.example/callback"
	call := func(method, path, contentType, body string, basic bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if basic {
			req.SetBasicAuth("admin", a.password)
		}
		rec := httptest.NewRecorder()
		a.app.HTTP.ServeHTTP(rec, req)
		return rec
	}
	rec := call("POST", "/api/v1/user/applications/oauth2", "application/json",
		`{"name":"bench","confidential_client":true,"redirect_uris":["`+cb+`"]}`, true)
	var app struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &app) != nil {
		b.Fatalf("create application: %d %s", rec.Code, rec.Body)
	}
	q := url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {cb},
		"state": {"s"}, "scope": {scope}}
	rec = call("GET", "/login/oauth/authorize?"+q.Encode(), "", "", true)
	loc, err := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || err != nil || loc.Query().Get("code") == "" {
		b.Fatalf("authorize: %d %s %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID},
		"client_secret": {app.ClientSecret}, "code": {loc.Query().Get("code")}, "redirect_uri": {cb}}
	rec = call("POST", "/login/oauth/access_token", "application/x-www-form-urlencoded", form.Encode(), false)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &tok) != nil || tok.AccessToken == "" {
		b.Fatalf("access token: %d %s", rec.Code, rec.Body)
	}
	return tok.AccessToken
}

// BenchmarkGetUserBearer is GET /api/v1/user with an OAuth2 access token
// (a signed JWT; the grant's lookup is cached, so the hot path is a
// signature check and no query) beside the same request with an access
// token on the same server: the target is the bearer keeping at
// least 80% of the token's throughput.
func BenchmarkGetUserBearer(b *testing.B) {
	a := newBenchApp(b)
	bearer := http.Header{"Authorization": {"Bearer " + a.benchBearer(b, "read:user")}}
	token := http.Header{"Authorization": {"token " + a.token}}
	b.Run("bearer/handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, "/api/v1/user", bearer) })
	b.Run("token/handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, "/api/v1/user", token) })
	b.Run("bearer/loopback", func(b *testing.B) {
		benchLoopback(b, a.app.HTTP, "/api/v1/user", bearer)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
	b.Run("token/loopback", func(b *testing.B) {
		benchLoopback(b, a.app.HTTP, "/api/v1/user", token)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
}
