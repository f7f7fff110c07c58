package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/test/testserver"
)

// defineBadges defines badges with slugs, as the admin CLI does.
func defineBadges(t *testing.T, srv *testserver.Server, slugs ...string) {
	t.Helper()
	for _, slug := range slugs {
		b := &user.Badge{Slug: slug, Description: "the " + slug + " badge", ImageURL: "https://example.com/" + slug + ".png"}
		if err := srv.App.Users.UserBadges().Define(t.Context(), b); err != nil {
			t.Fatalf("define badge %q: %v", slug, err)
		}
	}
}

// userBadgeSlugs lists name's badges through the SDK, in order.
func userBadgeSlugs(t *testing.T, c *gitea.Client, name string) []string {
	t.Helper()
	list, _, err := c.ListUserBadges(name)
	if err != nil {
		t.Fatalf("list badges of %s: %v", name, err)
	}
	out := []string{}
	for _, b := range list {
		out = append(out, b.Slug)
	}
	return out
}

func TestUserBadges(t *testing.T) {
	t.Parallel()
	backends(t, testUserBadges)
}

func testUserBadges(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()
	newAccount(t, srv, "holder", gitea.VisibleTypePublic)
	defineBadges(t, srv, "early", "helper", "tester")

	is.Equal(userBadgeSlugs(t, admin, "holder"), []string{})
	resp, err := admin.AddUserBadges("holder", gitea.UserBadgeOption{BadgeSlugs: []string{"helper", "early"}})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	// A badge the user holds already is a no-op, and so is a slug named twice.
	resp, err = admin.AddUserBadges("holder", gitea.UserBadgeOption{BadgeSlugs: []string{"early", "tester", "tester"}})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)

	list, _, err := admin.ListUserBadges("holder")
	is.NoErr(err)
	is.Equal(len(list), 3)
	is.Equal(*list[0], gitea.Badge{ID: list[0].ID, Slug: "helper", Description: "the helper badge",
		ImageURL: "https://example.com/helper.png"})
	is.Equal(userBadgeSlugs(t, admin, "holder"), []string{"helper", "early", "tester"})
	is.Equal(srv.Do("GET", "/admin/users/holder/badges", nil, adminHeader(srv)...).Header.Get("X-Total-Count"), "3")

	// An unknown slug is a 422 naming it, and nothing of the request is done.
	r := srv.Do("POST", "/admin/users/holder/badges", `{"badge_slugs":["early","nope","gone"]}`, adminHeader(srv)...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "BadgeSlugs: badge does not exist: gone, nope")
	r = srv.Do("DELETE", "/admin/users/holder/badges", `{"badge_slugs":["helper","nope"]}`, adminHeader(srv)...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "BadgeSlugs: badge does not exist: nope")
	is.Equal(userBadgeSlugs(t, admin, "holder"), []string{"helper", "early", "tester"})

	resp, err = admin.DeleteUserBadge("holder", gitea.UserBadgeOption{BadgeSlugs: []string{"early"}})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	is.Equal(userBadgeSlugs(t, admin, "holder"), []string{"helper", "tester"})

	// A malformed body is a 400.
	r = srv.Do("POST", "/admin/users/holder/badges", `{"badge_slugs":`, adminHeader(srv)...)
	is.Equal(r.Status, http.StatusBadRequest)

	// An unknown user is a 404 on each route.
	for _, m := range []string{"GET", "POST", "DELETE"} {
		var body any
		if m != "GET" {
			body = `{"badge_slugs":["early"]}`
		}
		r := srv.Do(m, "/admin/users/nobody/badges", body, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusNotFound)
	}

	// Deleting a badge takes it from its holders.
	is.NoErr(srv.App.Users.UserBadges().Undefine(t.Context(), "tester"))
	is.Equal(userBadgeSlugs(t, admin, "holder"), []string{"helper"})
}

func TestUserBadgesAccess(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	newAccount(t, srv, "plain", gitea.VisibleTypePublic)
	defineBadges(t, srv, "early")
	plainTok := srv.CreateToken("plain", userPassword, "write:admin", "write:user")
	readTok := srv.CreateToken("admin", srv.AdminPassword, "read:admin")
	userTok := srv.CreateToken("admin", srv.AdminPassword, "write:user")
	writeTok := srv.CreateToken("admin", srv.AdminPassword, "write:admin")
	body := `{"badge_slugs":["early"]}`
	for _, m := range []string{"GET", "POST", "DELETE"} {
		var b any
		if m != "GET" {
			b = body
		}
		for _, path := range []string{"/admin/users/plain/badges", "/admin/users/nobody/badges"} {
			assertAPIError(t, srv.Do(m, path, b), http.StatusUnauthorized, "token is required")
			assertAPIError(t, srv.Do(m, path, b, basicAs("plain")...), http.StatusForbidden, "user should be the site admin")
			assertAPIError(t, srv.Do(m, path, b, "Authorization", "token "+plainTok), http.StatusForbidden,
				"user should be the site admin")
		}
		r := srv.Do(m, "/admin/users/plain/badges", b, "Authorization", "token "+userTok)
		is.Equal(r.Status, http.StatusForbidden) // no admin scope
		r = srv.Do(m, "/admin/users/plain/badges", b, "Authorization", "token "+readTok)
		if m == "GET" {
			is.Equal(r.Status, http.StatusOK)
		} else {
			is.Equal(r.Status, http.StatusForbidden) // read:admin does not write
			is.True(strings.Contains(r.Message(), "write:admin"))
		}
	}
	r := srv.Do("POST", "/admin/users/plain/badges", body, "Authorization", "token "+writeTok)
	is.Equal(r.Status, http.StatusNoContent)
	r = srv.Do("GET", "/admin/users/plain/badges", nil, "Authorization", "token "+readTok)
	var got []gitea.Badge
	r.Decode(t, &got)
	is.Equal(len(got), 1)
	is.Equal(got[0].Slug, "early")
}
