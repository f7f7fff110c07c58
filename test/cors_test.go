package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

const corsOrigin = "https://app.example"

// corsHeaderList splits a comma-separated header value into trimmed names.
func corsHeaderList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// corsHas reports whether list holds name, compared as header names are (case-insensitively).
func corsHas(list []string, name string) bool {
	for _, v := range list {
		if strings.EqualFold(v, name) {
			return true
		}
	}
	return false
}

// corsWantNone checks that a response carries no CORS headers.
func corsWantNone(is *is.I, r testserver.Response) {
	is.Helper()
	for k := range r.Header {
		is.True(!strings.HasPrefix(strings.ToLower(k), "access-control-")) // no CORS header
	}
}

// TestCORS covers cross-origin requests when the site enables them.
func TestCORS(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.CORSAllowedOrigins = []string{corsOrigin}
		s.CORSAllowedHeaders = []string{"X-Custom"}
	}))
	srv.CreateUser("alice", "alice-password")

	t.Run("preflight", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("OPTIONS", "/user", nil, "Origin", corsOrigin, "Access-Control-Request-Method", "PATCH",
			"Access-Control-Request-Headers", "authorization,x-service-otp,x-custom")
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Access-Control-Allow-Origin"), corsOrigin)
		allowed := corsHeaderList(r.Header.Get("Access-Control-Allow-Headers"))
		is.True(corsHas(allowed, "Authorization"))
		is.True(corsHas(allowed, "X-Service-OTP"))
		is.True(corsHas(allowed, "X-Custom"))
		methods := corsHeaderList(r.Header.Get("Access-Control-Allow-Methods"))
		is.True(corsHas(methods, "PATCH"))
		is.True(corsHas(methods, "GET"))
		is.Equal(r.Header.Get("X-Content-Type-Options"), "nosniff")
	})
	t.Run("preflight on an unknown route", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("OPTIONS", "/users/alice/tokens", nil, "Origin", corsOrigin, "Access-Control-Request-Method", "POST")
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Access-Control-Allow-Origin"), corsOrigin)
	})
	t.Run("actual request", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/user", nil, "Origin", corsOrigin, "Authorization", testserver.Basic("alice", "alice-password"))
		authWantUser(t, is, r, "alice")
		is.Equal(r.Header.Get("Access-Control-Allow-Origin"), corsOrigin)
		is.True(corsHas(corsHeaderList(r.Header.Get("Vary")), "Origin"))
		// A refused request is still readable by the page.
		r = srv.Do("GET", "/user", nil, "Origin", corsOrigin)
		authWantErr(is, r, http.StatusUnauthorized, authMsgTokenRequired)
		is.Equal(r.Header.Get("Access-Control-Allow-Origin"), corsOrigin)
	})
	t.Run("unlisted origin", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("OPTIONS", "/user", nil, "Origin", "https://evil.example", "Access-Control-Request-Method", "GET",
			"Access-Control-Request-Headers", "authorization")
		corsWantNone(is, r)
		r = srv.Do("GET", "/version", nil, "Origin", "https://evil.example")
		is.Equal(r.Status, http.StatusOK)
		corsWantNone(is, r)
		// Origins match exactly: no prefix, suffix or scheme games.
		for _, o := range []string{"https://app.example.evil", "http://app.example", "https://app.example:8443"} {
			corsWantNone(is, srv.Do("OPTIONS", "/user", nil, "Origin", o, "Access-Control-Request-Method", "GET"))
		}
	})
	t.Run("no origin", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/version", nil)
		is.Equal(r.Status, http.StatusOK)
		corsWantNone(is, r)
	})
}

// TestCORSDisabled checks that a site without allowed origins answers no
// CORS headers at all.
func TestCORSDisabled(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.CORSAllowedHeaders = []string{"X-Custom"}
	}))
	is := is.New(t)
	r := srv.Do("OPTIONS", "/user", nil, "Origin", corsOrigin, "Access-Control-Request-Method", "GET",
		"Access-Control-Request-Headers", "authorization")
	corsWantNone(is, r)
	is.True(r.Status != http.StatusOK) // not answered as a preflight
	r = srv.Do("GET", "/version", nil, "Origin", corsOrigin)
	is.Equal(r.Status, http.StatusOK)
	corsWantNone(is, r)
}

// TestNosniff checks that every response carries X-Content-Type-Options: nosniff.
func TestNosniff(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	srv.CreateUser("alice", "alice-password")
	for _, c := range []struct {
		name, method, path string
		header             []string
		status             int
	}{
		{"200", "GET", "/version", nil, http.StatusOK},
		{"200 signed in", "GET", "/user", []string{"Authorization", testserver.Basic("alice", "alice-password")}, http.StatusOK},
		{"401 no caller", "GET", "/user", nil, http.StatusUnauthorized},
		{"401 bad credentials", "GET", "/user", []string{"Authorization", "token nonsense"}, http.StatusUnauthorized},
		{"403", "GET", "/admin/users", []string{"Authorization", testserver.Basic("alice", "alice-password")}, http.StatusForbidden},
		{"404 absent user", "GET", "/users/nobody", nil, http.StatusNotFound},
		{"404 unknown route", "GET", "/no/such/route", nil, http.StatusNotFound},
		{"404 outside the API", "GET", srv.URL + "/nothing-here", nil, http.StatusNotFound},
		{"405", "DELETE", "/version", nil, http.StatusMethodNotAllowed},
		{"422", "POST", "/users/alice/tokens", []string{"Authorization", testserver.Basic("alice", "alice-password")}, http.StatusUnprocessableEntity},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			var body any
			if c.method == "POST" {
				body = map[string]any{"name": "x"}
			}
			r := srv.Do(c.method, c.path, body, c.header...)
			is.Equal(r.Status, c.status)
			is.Equal(r.Header.Get("X-Content-Type-Options"), "nosniff")
			if c.status == http.StatusMethodNotAllowed {
				is.Equal(r.Header.Get("Allow"), "GET")
			}
		})
	}
}
