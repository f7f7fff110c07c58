package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// With the interactive API page off, the url of every error body names a
// page the server answers: Depot's API document, as plain text, to anyone
// (also on a site that requires sign-in, whose 403s point there too).
func TestAPIDocsAnswer(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.RequireSignInView = true
		s.APIDocs.EnableSwagger = false
	}))
	is := is.New(t)

	for _, r := range []testserver.Response{
		srv.Do("GET", "/nope", nil),        // 404
		srv.Do("GET", "/users/admin", nil), // 403: sign-in required
		srv.Do("GET", "/user", nil, "Authorization", "token 0000000000000000000000000000000000000000"), // 401
	} {
		var body struct {
			Message string `json:"message"`
			URL     string `json:"url"`
		}
		r.Decode(t, &body)
		is.Equal(body.URL, srv.URL+"/api/docs")

		page := srv.Do("GET", body.URL, nil)
		is.Equal(page.Status, http.StatusOK) // the url is no dead link
		is.Equal(page.Header.Get("Content-Type"), "text/plain; charset=utf-8")
		text := string(page.Body)
		is.True(strings.HasPrefix(text, "# Depot's API"))
		is.True(strings.Contains(text, "## Errors"))
		is.True(strings.Contains(text, "What Depot does not serve yet"))
	}

	head := srv.Do("HEAD", srv.URL+"/api/docs", nil)
	is.Equal(head.Status, http.StatusOK)
	is.Equal(len(head.Body), 0)
	is.True(head.Header.Get("Content-Length") != "0")
	is.Equal(srv.Do("POST", srv.URL+"/api/docs", "x").Status, http.StatusMethodNotAllowed)
}
