package test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

func TestErrorsUnknownRoute(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	for _, p := range []string{"/nope", "/users", "/users/admin/nope", "/admin", "/admin/users/admin/unknown", "/user/emails/x", ""} {
		for _, m := range []string{"GET", "POST", "DELETE"} {
			r := srv.Do(m, p, nil)
			assertAPIError(t, r, http.StatusNotFound, "route not found")
			r = srv.Do(m, p, nil, adminHeader(srv)...)
			assertAPIError(t, r, http.StatusNotFound, "route not found")
		}
	}
	is := is.New(t)
	r := srv.Do("GET", "/nope", nil)
	var body map[string]any
	r.Decode(t, &body)
	is.Equal(body["message"], "route not found")
	is.Equal(body["url"], srv.URL+"/api/swagger") // the interactive API page (TestAPIPage)
	is.Equal(r.Header.Get("X-Content-Type-Options"), "nosniff")
	is.True(r.Header.Get("X-Request-Id") != "")
}

func TestErrorsMethodNotAllowed(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	cases := []struct{ method, path, allow string }{
		{"PUT", "/users/search", "GET"},
		{"DELETE", "/users/admin", "GET"},
		{"PUT", "/users/admin/tokens", "GET, POST"},
		{"GET", "/users/admin/tokens/1", "DELETE"},
		{"POST", "/user", "GET"},
		{"DELETE", "/user/settings", "GET, PATCH"},
		{"PUT", "/user/emails", "DELETE, GET, POST"},
		{"DELETE", "/admin/users", "GET, POST"},
		{"GET", "/admin/users/admin", "DELETE, PATCH"},
		{"GET", "/admin/users/admin/rename", "POST"},
		{"POST", "/admin/emails", "GET"},
		{"POST", "/version", "GET"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			for _, h := range [][]string{nil, adminHeader(srv)} {
				r := srv.Do(c.method, c.path, nil, h...)
				assertAPIError(t, r, http.StatusMethodNotAllowed, "method not allowed")
				if got := r.Header.Get("Allow"); got != c.allow {
					t.Fatalf("Allow %q, want %q", got, c.allow)
				}
			}
		})
	}
}

func TestErrorsMalformedBodies(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	newAccount(t, srv, "bodyer", gitea.VisibleTypePublic)
	admin := adminHeader(srv)

	t.Run("malformed JSON is 400", func(t *testing.T) {
		for _, body := range []string{`{"username":`, `{username:"x"}`, `{"username":"x"} trailing`, `not json`, `[1,2]`, `"str"`, `12`} {
			assertAPIError(t, srv.Do("POST", "/admin/users", body, admin...), http.StatusBadRequest, "")
			assertAPIError(t, srv.Do("PATCH", "/user/settings", body, basicAs("bodyer")...), http.StatusBadRequest, "")
			assertAPIError(t, srv.Do("POST", "/user/emails", body, basicAs("bodyer")...), http.StatusBadRequest, "")
		}
		assertNoUser(t, srv, "x")
	})

	t.Run("wrong-typed field is 422 naming it", func(t *testing.T) {
		cases := []struct {
			method, path, body, field string
			h                         []string
		}{
			{"POST", "/admin/users", `{"username":5,"email":"five@example.com","password":"password123"}`, "Username", admin},
			{"POST", "/admin/users", `{"username":"five","email":["five@example.com"],"password":"password123"}`, "Email", admin},
			{"POST", "/admin/users", `{"username":"five","email":"five@example.com","password":"password123","visibility":1}`, "Visibility", admin},
			{"PATCH", "/admin/users/bodyer", `{"max_repo_creation":"many"}`, "MaxRepoCreation", admin},
			{"PATCH", "/admin/users/bodyer", `{"active":"true"}`, "Active", admin},
			{"PATCH", "/user/settings", `{"full_name":{"first":"a"}}`, "FullName", basicAs("bodyer")},
			{"POST", "/user/emails", `{"emails":"one@example.com"}`, "Emails", basicAs("bodyer")},
			{"POST", "/user/emails", `{"emails":[1]}`, "Emails", basicAs("bodyer")},
			{"POST", "/users/bodyer/tokens", `{"name":"t","scopes":"all"}`, "Scopes", basicAs("bodyer")},
		}
		for _, c := range cases {
			r := srv.Do(c.method, c.path, c.body, c.h...)
			assertInvalid(t, r, c.field)
		}
		assertNoUser(t, srv, "five")
		is := is.New(t)
		u, _, err := srv.AdminClient().GetUserInfo("bodyer")
		is.NoErr(err)
		is.True(u.IsActive)
	})

	t.Run("empty body on a write is an empty object", func(t *testing.T) {
		assertInvalid(t, srv.Do("POST", "/admin/users", "", admin...), "Username")
		assertInvalid(t, srv.Do("POST", "/user/emails", "", basicAs("bodyer")...), "Emails")
		r := srv.Do("PATCH", "/user/settings", "", basicAs("bodyer")...)
		if r.Status != http.StatusOK {
			t.Fatalf("empty settings patch: %d %s", r.Status, r.Body)
		}
	})
}

// chunked hides a reader's length so that the client sends it chunked.
type chunked struct{ io.Reader }

func TestErrorsBodyTooLarge(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxBodyBytes = 1024 }))
	body := func(name string, pad int) []byte {
		return []byte(fmt.Sprintf(`{"username":%q,"email":"%s@example.com","password":"password123","padding":%q}`,
			name, name, strings.Repeat("x", pad)))
	}

	t.Run("with Content-Length", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/admin/users", body("biggy", 4096), adminHeader(srv)...)
		assertAPIError(t, r, http.StatusRequestEntityTooLarge, "request body too large")
		assertNoUser(t, srv, "biggy")
		// The same request under the limit goes through.
		r = srv.Do("POST", "/admin/users", body("biggy", 10), adminHeader(srv)...)
		is.Equal(r.Status, http.StatusCreated)
	})

	t.Run("chunked", func(t *testing.T) {
		is := is.New(t)
		req, err := http.NewRequest("POST", srv.API+"/admin/users", chunked{bytes.NewReader(body("chunky", 4096))})
		is.NoErr(err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", testserver.Basic("admin", srv.AdminPassword))
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		defer resp.Body.Close()
		is.Equal(req.ContentLength, int64(0)) // unknown length: sent chunked
		is.Equal(resp.StatusCode, http.StatusRequestEntityTooLarge)
		data, err := io.ReadAll(resp.Body)
		is.NoErr(err)
		assertErrorShape(t, testserver.Response{Status: resp.StatusCode, Header: resp.Header, Body: data})
		assertNoUser(t, srv, "chunky")

		// Chunked under the limit is fine.
		req, err = http.NewRequest("POST", srv.API+"/admin/users", chunked{bytes.NewReader(body("chunky", 10))})
		is.NoErr(err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", testserver.Basic("admin", srv.AdminPassword))
		resp2, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		defer resp2.Body.Close()
		is.Equal(resp2.StatusCode, http.StatusCreated)
	})

	t.Run("on other writes", func(t *testing.T) {
		big := fmt.Sprintf(`{"full_name":"x","padding":%q}`, strings.Repeat("y", 4096))
		assertAPIError(t, srv.Do("PATCH", "/admin/users/admin", big, adminHeader(srv)...), http.StatusRequestEntityTooLarge, "")
		assertAPIError(t, srv.Do("PATCH", "/user/settings", big, adminHeader(srv)...), http.StatusRequestEntityTooLarge, "")
		u, _, err := srv.AdminClient().GetMyUserInfo()
		if err != nil || u.FullName != "" {
			t.Fatalf("oversized edits were applied: %v %+v", err, u)
		}
	})
}

func TestErrorsHostileNames(t *testing.T) {
	t.Parallel()
	backends(t, testHostileNames)
}

func testHostileNames(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	newAccount(t, srv, "target", gitea.VisibleTypePublic)
	admin := adminHeader(srv)
	// Path segments, as sent on the wire.
	names := []string{
		"%2e%2e", "%2E%2E%2Fadmin", "a%2Fb", "%F0%9F%98%80", "%C3%BCn%C3%AF", "%00", "a%00b", "%FF", "%25",
		"%20", "target%20", "..%5c..", strings.Repeat("n", 5000), "%E2%80%AE", "target%0a",
	}
	for _, n := range names {
		t.Run(n[:min(len(n), 20)], func(t *testing.T) {
			checks := []struct {
				method, path string
				body         any
				h            []string
			}{
				{"GET", "/users/" + n, nil, nil},
				{"GET", "/users/" + n, nil, admin},
				{"GET", "/users/" + n + "/tokens", nil, admin},
				{"POST", "/users/" + n + "/tokens", `{"name":"x","scopes":["all"]}`, admin},
				{"DELETE", "/users/target/tokens/" + n, nil, basicAs("target")},
				{"PATCH", "/admin/users/" + n, `{"full_name":"x"}`, admin},
				{"DELETE", "/admin/users/" + n, nil, admin},
				{"POST", "/admin/users/" + n + "/rename", `{"new_username":"renamed"}`, admin},
				{"POST", "/admin/users/target/rename", `{"new_username":"` + n + `"}`, admin},
				{"GET", "/users/search?q=" + n, nil, nil},
				{"GET", "/users/search?q=" + n + "&uid=" + n, nil, admin},
				{"GET", "/admin/emails/search?q=" + n, nil, admin},
				{"GET", "/admin/users?login_name=" + n, nil, admin},
			}
			for _, c := range checks {
				r := srv.Do(c.method, c.path, c.body, c.h...)
				if r.Status >= 500 {
					t.Fatalf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
				}
				if r.Status >= 400 {
					assertErrorShape(t, r)
				}
			}
		})
	}

	// Hostile strings inside JSON bodies.
	bad := []string{`\u0000`, `a\u0000b`, `\ud800`, `😀`, `\u202e`, `ünï`, `a/b`, `../x`, "%00"}
	for _, s := range bad {
		t.Run("body "+s, func(t *testing.T) {
			checks := []struct {
				method, path, body string
				h                  []string
			}{
				{"POST", "/admin/users", `{"username":"` + s + `","email":"h@example.com","password":"password123"}`, admin},
				{"POST", "/admin/users", `{"username":"hostile","email":"` + s + `@example.com","password":"password123"}`, admin},
				{"POST", "/admin/users", `{"username":"hostile2","full_name":"` + s + `","email":"h2@example.com","password":"password123"}`, admin},
				{"POST", "/admin/users/target/rename", `{"new_username":"` + s + `"}`, admin},
				{"PATCH", "/admin/users/target", `{"email":"` + s + `"}`, admin},
				{"PATCH", "/admin/users/target", `{"location":"` + s + `","description":"` + s + `"}`, admin},
				{"PATCH", "/user/settings", `{"full_name":"` + s + `","theme":"` + s + `"}`, basicAs("target")},
				{"POST", "/user/emails", `{"emails":["` + s + `"]}`, basicAs("target")},
				{"DELETE", "/user/emails", `{"emails":["` + s + `"]}`, basicAs("target")},
				{"POST", "/users/target/tokens", `{"name":"` + s + `","scopes":["read:user"]}`, basicAs("target")},
				{"POST", "/users/target/tokens", `{"name":"ok","scopes":["` + s + `"]}`, basicAs("target")},
			}
			for _, c := range checks {
				r := srv.Do(c.method, c.path, c.body, c.h...)
				if r.Status >= 500 {
					t.Fatalf("%s %s %s: %d %s", c.method, c.path, c.body, r.Status, r.Body)
				}
				if r.Status >= 400 {
					assertErrorShape(t, r)
				}
			}
		})
	}

	// NUL characters cannot be stored: they are refused up front, by field.
	assertInvalid(t, srv.Do("POST", "/admin/users", `{"username":"nul","full_name":"a\u0000b","email":"nul@example.com","password":"password123"}`, admin...), "FullName")
	assertInvalid(t, srv.Do("PATCH", "/user/settings", `{"location":"\u0000"}`, basicAs("target")...), "Location")
	assertInvalid(t, srv.Do("POST", "/users/target/tokens", `{"name":"a\u0000","scopes":["read:user"]}`, basicAs("target")...), "Name")
	assertInvalid(t, srv.Do("POST", "/user/emails", `{"emails":["ok@example.com","x\u0000@example.com"]}`, basicAs("target")...), "Emails")
	assertAPIError(t, srv.Do("GET", "/users/a%00b", nil), http.StatusBadRequest, "malformed path")
	assertAPIError(t, srv.Do("GET", "/users/search?q=a%00", nil), http.StatusBadRequest, "malformed query")
	assertNoUser(t, srv, "nul")

	// Whatever was accepted, the account still reads back cleanly.
	is := is.New(t)
	r := srv.Do("GET", "/admin/users", nil, admin...)
	is.Equal(r.Status, http.StatusOK)
	var list []gitea.User
	r.Decode(t, &list)
	for _, u := range list {
		r := srv.Do("GET", "/users/"+u.UserName, nil, admin...)
		is.Equal(r.Status, http.StatusOK)
	}
}
