package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// backends runs f once per storage backend.
func backends(t *testing.T, f func(t *testing.T, opts ...testserver.Option)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); f(t) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); f(t, testserver.OnPostgres()) })
}

// adminHeader is the Authorization pair for srv.Do as the bootstrap admin.
func adminHeader(srv *testserver.Server) []string {
	return []string{"Authorization", testserver.Basic("admin", srv.AdminPassword)}
}

// assertNoUser checks that no account called name exists, by the admin's listing.
func assertNoUser(t *testing.T, srv *testserver.Server, name string) {
	t.Helper()
	list, _, err := srv.AdminClient().AdminListUsers(gitea.AdminListUsersOptions{LoginName: name})
	if err != nil {
		t.Fatalf("list users: %v", err)
	}
	if len(list) != 0 {
		t.Fatalf("user %q exists: %+v", name, list[0])
	}
}

// assertEmailOwner checks who owns addr ("" for nobody), by the admin's e-mail search.
func assertEmailOwner(t *testing.T, srv *testserver.Server, addr, owner string) {
	t.Helper()
	list, _, err := srv.AdminClient().SearchAdminEmails(gitea.SearchAdminEmailsOptions{Query: addr})
	if err != nil {
		t.Fatalf("search emails: %v", err)
	}
	got := ""
	for _, e := range list {
		if strings.EqualFold(e.Email, addr) {
			got = e.Username
		}
	}
	if got != owner {
		t.Fatalf("owner of %s is %q, want %q", addr, got, owner)
	}
}

func TestAdminRoutesNeedSiteAdmin(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	newAccount(t, srv, "plain", gitea.VisibleTypePublic)
	newAccount(t, srv, "hiddenplain", gitea.VisibleTypePrivate)
	tok := srv.CreateToken("plain", userPassword, "write:admin", "write:user")
	routes := []struct{ method, path, body string }{
		{"GET", "/admin/users", ""},
		{"POST", "/admin/users", `{"username":"x1","email":"x1@example.com","password":"password123"}`},
		{"PATCH", "/admin/users/hiddenplain", `{"admin":true}`},
		{"PATCH", "/admin/users/no-such-user", `{"admin":true}`},
		{"DELETE", "/admin/users/hiddenplain", ""},
		{"DELETE", "/admin/users/no-such-user", ""},
		{"POST", "/admin/users/hiddenplain/rename", `{"new_username":"y1"}`},
		{"POST", "/admin/users/no-such-user/rename", `{"new_username":"y1"}`},
		{"GET", "/admin/emails", ""},
		{"GET", "/admin/emails/search?q=x", ""},
		{"GET", "/admin/cron", ""},
		{"POST", "/admin/cron/update_mirrors", ""},
		{"POST", "/admin/cron/no_such_task", ""},
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			var body any
			if rt.body != "" {
				body = rt.body
			}
			// Whether the named account exists is nobody's business but an admin's.
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, "token is required")
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("plain")...), http.StatusForbidden, "user should be the site admin")
			assertAPIError(t, srv.Do(rt.method, rt.path, body, "Authorization", "token "+tok),
				http.StatusForbidden, "user should be the site admin")
		})
	}
	is := is.New(t)
	u, _, err := srv.AdminClient().GetUserInfo("hiddenplain")
	is.NoErr(err)
	is.Equal(u.IsAdmin, false)
	assertNoUser(t, srv, "x1")
	assertNoUser(t, srv, "y1")
}

func TestAdminCreateUser(t *testing.T) {
	t.Parallel()
	backends(t, testAdminCreateUser)
}

func testAdminCreateUser(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()

	t.Run("defaults", func(t *testing.T) {
		is := is.New(t)
		u, resp, err := admin.AdminCreateUser(gitea.CreateUserOption{
			Username: "Fresh", Email: "Fresh@Example.com", Password: "password123"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.True(u.ID > 0)
		is.Equal(u.UserName, "Fresh")
		is.Equal(u.Email, "Fresh@Example.com")
		is.Equal(u.Visibility, gitea.VisibleTypePublic)
		is.True(u.IsActive)
		is.Equal(u.IsAdmin, false)
		is.Equal(u.ProhibitLogin, false)
		is.Equal(u.HTMLURL, srv.URL+"/Fresh")
		// must_change_password defaults to true, as in Gitea: the account is
		// held at the password change until an admin or the user clears it.
		r := srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("fresh", "password123"))
		is.Equal(r.Status, http.StatusForbidden)
		is.True(strings.HasPrefix(r.Message(), "You must change your password."))
		no := false
		_, err = admin.AdminEditUser("fresh", gitea.EditUserOption{MustChangePassword: &no})
		is.NoErr(err)
		me, _, err := srv.Client(gitea.SetBasicAuth("fresh", "password123")).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.ID, u.ID)
		assertEmailOwner(t, srv, "fresh@example.com", "Fresh")
	})

	t.Run("all fields", func(t *testing.T) {
		is := is.New(t)
		yes, vis := true, gitea.VisibleTypeLimited
		u, _, err := admin.AdminCreateUser(gitea.CreateUserOption{
			Username: "full.er_1-x", FullName: "Full Er", Email: "full@example.com", Password: "password123",
			MustChangePassword: &yes, Visibility: &vis})
		is.NoErr(err)
		is.Equal(u.FullName, "Full Er")
		is.Equal(u.Visibility, gitea.VisibleTypeLimited)
		r := srv.Do("POST", "/admin/users", map[string]any{"username": "privcreated", "email": "pc@example.com",
			"password": "password123", "must_change_password": false, "visibility": "private"}, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusCreated)
		var pc gitea.User
		r.Decode(t, &pc)
		is.Equal(pc.Visibility, gitea.VisibleTypePrivate)
		_, resp, err := srv.Client().GetUserInfo("privcreated")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		me, _, err := srv.Client(gitea.SetBasicAuth("privcreated", "password123")).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "privcreated")
	})

	t.Run("rejects and writes nothing", func(t *testing.T) {
		_, _, err := admin.AddEmail(gitea.CreateEmailOption{Emails: []string{"admin-second@example.com"}})
		if err != nil {
			t.Fatal(err)
		}
		ok := func(name string) map[string]any {
			return map[string]any{"username": name, "email": name + "@example.com", "password": "password123"}
		}
		with := func(name, key string, v any) map[string]any {
			b := ok(name)
			if v == nil {
				delete(b, key)
			} else {
				b[key] = v
			}
			return b
		}
		cases := []struct {
			name  string
			body  map[string]any
			field string
			user  string // must not exist afterwards
		}{
			{"slash", ok("a/b"), "Username", "a/b"},
			{"dot dot", ok("../x"), "Username", "../x"},
			{"non ascii", ok("ünï"), "Username", "ünï"},
			{"emoji", ok("smile😀"), "Username", "smile😀"},
			{"reserved", ok("api"), "Username", "api"},
			{"reserved other case", ok("Admin"), "Username", ""},
			{"reserved suffix", ok("repo.git"), "Username", "repo.git"},
			{"leading dash", ok("-lead"), "Username", "-lead"},
			{"space", ok("has space"), "Username", "has space"},
			{"too long", ok(strings.Repeat("a", 41)), "Username", strings.Repeat("a", 41)},
			{"empty", with("", "email", "empty@example.com"), "Username", ""},
			{"missing username", with("nouser", "username", nil), "Username", ""},
			{"duplicate other case", with("FRESH", "email", "fresh2@example.com"), "Username", ""},
			{"duplicate email", with("dupmail", "email", "full@example.com"), "Email", "dupmail"},
			{"duplicate email other case", with("dupmail2", "email", "FULL@example.COM"), "Email", "dupmail2"},
			{"someone's secondary email", with("dupmail3", "email", "admin-second@example.com"), "Email", "dupmail3"},
			{"invalid email", with("badmail", "email", "not-an-email"), "Email", "badmail"},
			{"missing email", with("nomail", "email", nil), "Email", "nomail"},
			{"short password", with("shortpw", "password", "1234567"), "Password", "shortpw"},
			{"missing password", with("nopw", "password", nil), "Password", "nopw"},
			{"bad visibility", with("badvis", "visibility", "secret"), "Visibility", "badvis"},
			{"long full name", with("longfn", "full_name", strings.Repeat("f", 101)), "FullName", "longfn"},
			{"external source", with("ldapper", "source_id", 3), "SourceID", "ldapper"},
			{"wrong type", with("typed", "must_change_password", "yes"), "MustChangePassword", "typed"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				assertInvalid(t, srv.Do("POST", "/admin/users", c.body, adminHeader(srv)...), c.field)
				if c.user != "" {
					assertNoUser(t, srv, c.user)
				}
			})
		}
		assertEmailOwner(t, srv, "fresh2@example.com", "")
		assertEmailOwner(t, srv, "full@example.com", "full.er_1-x")
		assertEmailOwner(t, srv, "admin-second@example.com", "admin")

		// The SDK sees the same answer.
		_, resp, err := admin.AdminCreateUser(gitea.CreateUserOption{Username: "api", Email: "api@example.com", Password: "password123"})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
	})

	t.Run("a freed name is a new account, not a redirect", func(t *testing.T) {
		is := is.New(t)
		old, _ := newAccount(t, srv, "recycled", gitea.VisibleTypePublic)
		_, err := admin.AdminRenameUser("recycled", gitea.RenameUserOption{NewUsername: "recycled2"})
		is.NoErr(err)
		is.Equal(srv.Do("GET", "/users/recycled", nil).Status, http.StatusMovedPermanently)
		no := false
		fresh, _, err := admin.AdminCreateUser(gitea.CreateUserOption{Username: "recycled", Email: "recycled-again@example.com",
			Password: userPassword, MustChangePassword: &no})
		is.NoErr(err)
		is.True(fresh.ID != old.ID)
		u, _, err := srv.Client().GetUserInfo("recycled")
		is.NoErr(err)
		is.Equal(u.ID, fresh.ID)
		u, _, err = srv.Client().GetUserInfo("recycled2")
		is.NoErr(err)
		is.Equal(u.ID, old.ID)
	})
}

func TestAdminEditUser(t *testing.T) {
	t.Parallel()
	backends(t, testAdminEditUser)
}

func testAdminEditUser(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()
	target, tc := newAccount(t, srv, "editee", gitea.VisibleTypePublic)
	newAccount(t, srv, "bystander", gitea.VisibleTypePublic)
	str := func(s string) *string { return &s }
	edit := func(body any) testserver.Response {
		t.Helper()
		return srv.Do("PATCH", "/admin/users/editee", body, adminHeader(srv)...)
	}

	t.Run("profile fields", func(t *testing.T) {
		is := is.New(t)
		r := edit(map[string]any{"full_name": "Ed Itee", "website": "https://ed.example.com", "location": "Here",
			"description": "desc", "max_repo_creation": 5, "allow_create_organization": false})
		is.Equal(r.Status, http.StatusOK)
		var u gitea.User
		r.Decode(t, &u)
		is.Equal(u.ID, target.ID)
		is.Equal(u.FullName, "Ed Itee")
		is.Equal(u.Website, "https://ed.example.com")
		is.Equal(u.Location, "Here")
		is.Equal(u.Description, "desc")
		got, _, err := srv.Client().GetUserInfo("editee")
		is.NoErr(err)
		is.Equal(got.FullName, "Ed Itee")

		// An SDK edit leaves unset fields alone.
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Location: str("There")})
		is.NoErr(err)
		got, _, err = srv.Client().GetUserInfo("editee")
		is.NoErr(err)
		is.Equal(got.FullName, "Ed Itee")
		is.Equal(got.Location, "There")
	})

	t.Run("email becomes primary", func(t *testing.T) {
		is := is.New(t)
		_, err := admin.AdminEditUser("editee", gitea.EditUserOption{Email: str("ed.new@example.com")})
		is.NoErr(err)
		me, _, err := tc.GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.Email, "ed.new@example.com")
		list, _, err := tc.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		primary := map[string]bool{}
		for _, e := range list {
			primary[e.Email] = e.Primary
		}
		is.Equal(primary, map[string]bool{"editee@example.com": false, "ed.new@example.com": true})

		// Back to an address the user already has: no duplicate, just the flag.
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Email: str("EDITEE@example.com")})
		is.NoErr(err)
		me, _, err = tc.GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.Email, "editee@example.com") // the address as stored, not as typed in the edit
		list, _, err = tc.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
		for _, e := range list {
			is.Equal(e.Primary, strings.EqualFold(e.Email, "editee@example.com"))
		}
		// The old primary, no longer primary, may now be deleted by the user.
		_, err = tc.DeleteEmail(gitea.DeleteEmailOption{Emails: []string{"ed.new@example.com"}})
		is.NoErr(err)
	})

	t.Run("admin flag", func(t *testing.T) {
		is := is.New(t)
		assertAPIError(t, srv.Do("GET", "/admin/users", nil, basicAs("editee")...), http.StatusForbidden, "user should be the site admin")
		yes, no := true, false
		_, err := admin.AdminEditUser("editee", gitea.EditUserOption{Admin: &yes})
		is.NoErr(err)
		list, _, err := tc.AdminListUsers(gitea.AdminListUsersOptions{})
		is.NoErr(err)
		is.True(len(list) >= 3)
		me, _, err := tc.GetMyUserInfo()
		is.NoErr(err)
		is.True(me.IsAdmin)
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Admin: &no})
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", "/admin/users", nil, basicAs("editee")...), http.StatusForbidden, "user should be the site admin")
	})

	t.Run("visibility", func(t *testing.T) {
		is := is.New(t)
		priv := gitea.VisibleTypePrivate
		_, err := admin.AdminEditUser("editee", gitea.EditUserOption{Visibility: &priv})
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", "/users/editee", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/users/editee", nil, basicAs("bystander")...), http.StatusNotFound, "")
		pub := gitea.VisibleTypePublic
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Visibility: &pub})
		is.NoErr(err)
		is.Equal(srv.Do("GET", "/users/editee", nil).Status, http.StatusOK)
	})

	t.Run("password", func(t *testing.T) {
		is := is.New(t)
		_, err := admin.AdminEditUser("editee", gitea.EditUserOption{Password: "brand-new-pass"})
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", "/user", nil, basicAs("editee")...), http.StatusUnauthorized, "")
		r := srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("editee", "brand-new-pass"))
		is.Equal(r.Status, http.StatusOK)
		// An empty password leaves the password alone.
		r = srv.Do("PATCH", "/admin/users/editee", `{"password":"","location":"Pw"}`, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusOK)
		r = srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("editee", "brand-new-pass"))
		is.Equal(r.Status, http.StatusOK)
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Password: userPassword})
		is.NoErr(err)
	})

	t.Run("account state", func(t *testing.T) {
		is := is.New(t)
		tok := srv.CreateToken("editee", userPassword, "read:user")
		yes, no := true, false
		_, err := admin.AdminEditUser("editee", gitea.EditUserOption{ProhibitLogin: &yes})
		is.NoErr(err)
		prohibited := "This account is prohibited from signing in, please contact your site administrator."
		assertAPIError(t, srv.Do("GET", "/user", nil, basicAs("editee")...), http.StatusForbidden, prohibited)
		assertAPIError(t, srv.Do("GET", "/user", nil, "Authorization", "token "+tok), http.StatusForbidden, prohibited)
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{ProhibitLogin: &no, Active: &no})
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", "/user", nil, basicAs("editee")...), http.StatusForbidden, prohibited)
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{Active: &yes, MustChangePassword: &yes})
		is.NoErr(err)
		r := srv.Do("GET", "/user", nil, basicAs("editee")...)
		is.Equal(r.Status, http.StatusForbidden)
		is.True(strings.HasPrefix(r.Message(), "You must change your password."))
		_, err = admin.AdminEditUser("editee", gitea.EditUserOption{MustChangePassword: &no})
		is.NoErr(err)
		me, _, err := srv.Client(gitea.SetToken(tok)).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "editee")
	})

	t.Run("rejects and changes nothing", func(t *testing.T) {
		is := is.New(t)
		before, _, err := admin.GetUserInfo("editee")
		is.NoErr(err)
		cases := []struct {
			body  string
			field string
		}{
			{`{"email":"bystander@example.com","full_name":"Nope"}`, "Email"},
			{`{"email":"not an address"}`, "Email"},
			{`{"email":"ed.third@example.com","visibility":"secret"}`, "Visibility"},
			{`{"full_name":"Nope","website":"gopher://x"}`, "Website"},
			{`{"full_name":"` + strings.Repeat("x", 101) + `"}`, "FullName"},
			{`{"password":"short","location":"Nope"}`, "Password"},
			{`{"max_repo_creation":-2}`, "MaxRepoCreation"},
			{`{"admin":"yes"}`, "Admin"},
		}
		for _, c := range cases {
			assertInvalid(t, edit(c.body), c.field)
		}
		after, _, err := admin.GetUserInfo("editee")
		is.NoErr(err)
		is.Equal(after.FullName, before.FullName)
		is.Equal(after.Email, before.Email)
		is.Equal(after.Location, before.Location)
		is.Equal(after.Visibility, before.Visibility)
		is.Equal(after.IsAdmin, false)
		assertEmailOwner(t, srv, "ed.third@example.com", "")
		assertEmailOwner(t, srv, "bystander@example.com", "bystander")
		r := srv.Do("GET", "/user", nil, basicAs("editee")...)
		is.Equal(r.Status, http.StatusOK) // the password did not change
	})

	t.Run("unknown user", func(t *testing.T) {
		_, err := admin.AdminEditUser("nobody-at-all", gitea.EditUserOption{})
		if err == nil {
			t.Fatal("edit of a missing user succeeded")
		}
		assertAPIError(t, srv.Do("PATCH", "/admin/users/nobody-at-all", `{}`, adminHeader(srv)...), http.StatusNotFound, "user does not exist")
	})
}

func TestAdminDeleteUser(t *testing.T) {
	t.Parallel()
	backends(t, testAdminDeleteUser)
}

func testAdminDeleteUser(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()

	// An account with everything that hangs off it: addresses, tokens, an old name.
	_, c := newAccount(t, srv, "doomed-old", gitea.VisibleTypePublic)
	_, _, err := c.AddEmail(gitea.CreateEmailOption{Emails: []string{"doomed2@example.com"}})
	is.NoErr(err)
	tok := srv.CreateToken("doomed-old", userPassword, "read:user")
	_, err = admin.AdminRenameUser("doomed-old", gitea.RenameUserOption{NewUsername: "doomed"})
	is.NoErr(err)
	r := srv.Do("GET", "/user", nil, "Authorization", "token "+tok)
	is.Equal(r.Status, http.StatusOK)

	resp, err := admin.AdminDeleteUser("doomed")
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)

	assertAPIError(t, srv.Do("GET", "/users/doomed", nil), http.StatusNotFound, "user does not exist")
	assertAPIError(t, srv.Do("GET", "/users/doomed-old", nil), http.StatusNotFound, "user does not exist")
	assertAPIError(t, srv.Do("GET", "/user", nil, "Authorization", "token "+tok), http.StatusUnauthorized, "")
	assertAPIError(t, srv.Do("GET", "/user", nil, basicAs("doomed")...), http.StatusUnauthorized, "")
	assertEmailOwner(t, srv, "doomed-old@example.com", "")
	assertEmailOwner(t, srv, "doomed2@example.com", "")

	// Names and addresses are free again.
	no := false
	u, _, err := admin.AdminCreateUser(gitea.CreateUserOption{Username: "doomed", Email: "doomed2@example.com",
		Password: userPassword, MustChangePassword: &no})
	is.NoErr(err)
	is.Equal(u.UserName, "doomed")

	resp, err = admin.AdminDeleteUser("doomed")
	is.NoErr(err)
	resp, err = admin.AdminDeleteUser("doomed")
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	assertAPIError(t, srv.Do("DELETE", "/admin/users/never-was", nil, adminHeader(srv)...), http.StatusNotFound, "user does not exist")

	// An administrator cannot delete itself; another administrator can.
	r = srv.Do("DELETE", "/admin/users/admin", nil, adminHeader(srv)...)
	is.Equal(r.Status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(r.Message(), "cannot delete yourself"))
	assertErrorShape(t, r)
	_, second := newAccount(t, srv, "second-admin", gitea.VisibleTypePublic)
	yes := true
	_, err = admin.AdminEditUser("second-admin", gitea.EditUserOption{Admin: &yes})
	is.NoErr(err)
	resp, err = second.AdminDeleteUser("admin")
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	assertAPIError(t, srv.Do("GET", "/user", nil, adminHeader(srv)...), http.StatusUnauthorized, "")
}

func TestAdminRenameUser(t *testing.T) {
	t.Parallel()
	backends(t, testAdminRenameUser)
}

func testAdminRenameUser(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()
	alice, _ := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	tok := srv.CreateToken("alice", userPassword, "read:user")
	rename := func(from, to string) testserver.Response {
		t.Helper()
		return srv.Do("POST", "/admin/users/"+from+"/rename", map[string]string{"new_username": to}, adminHeader(srv)...)
	}

	t.Run("rename and redirect", func(t *testing.T) {
		is := is.New(t)
		resp, err := admin.AdminRenameUser("alice", gitea.RenameUserOption{NewUsername: "alicia"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)

		u, _, err := srv.Client().GetUserInfo("alicia")
		is.NoErr(err)
		is.Equal(u.ID, alice.ID)
		is.Equal(u.HTMLURL, srv.URL+"/alicia")
		r := srv.Do("GET", "/users/alice", nil)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/users/alicia")
		r = srv.Do("GET", "/users/ALICE/tokens", nil, "Authorization", testserver.Basic("alicia", userPassword))
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/users/alicia/tokens")

		// Sign-in follows the new name; tokens keep working.
		assertAPIError(t, srv.Do("GET", "/user", nil, basicAs("alice")...), http.StatusUnauthorized, "")
		me, _, err := srv.Client(gitea.SetBasicAuth("alicia", userPassword)).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "alicia")
		me, _, err = srv.Client(gitea.SetToken(tok)).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "alicia")
		assertNoUser(t, srv, "alice")
	})

	t.Run("rejects", func(t *testing.T) {
		for _, to := range []string{"bob", "BOB", "admin", "a/b", "", "api", "ünï", "..", strings.Repeat("z", 41)} {
			assertInvalid(t, rename("alicia", to), "NewUsername")
		}
		assertInvalid(t, srv.Do("POST", "/admin/users/alicia/rename", `{"new_username":7}`, adminHeader(srv)...), "NewUsername")
		assertAPIError(t, rename("not-there", "whatever"), http.StatusNotFound, "user does not exist")
		u, _, err := srv.Client().GetUserInfo("alicia")
		if err != nil || u.ID != alice.ID {
			t.Fatalf("alicia changed: %v %+v", err, u)
		}
		assertNoUser(t, srv, "whatever")
	})

	t.Run("back to the old name", func(t *testing.T) {
		is := is.New(t)
		is.Equal(rename("alicia", "alice").Status, http.StatusNoContent)
		u, _, err := srv.Client().GetUserInfo("alice")
		is.NoErr(err)
		is.Equal(u.ID, alice.ID)
		is.Equal(srv.Do("GET", "/users/alice", nil).Status, http.StatusOK)
		r := srv.Do("GET", "/users/alicia", nil)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/users/alice")
	})

	t.Run("case only", func(t *testing.T) {
		is := is.New(t)
		is.Equal(rename("alice", "Alice").Status, http.StatusNoContent)
		u, _, err := srv.Client().GetUserInfo("alice")
		is.NoErr(err)
		is.Equal(u.UserName, "Alice")
	})

	t.Run("taking a redirected name", func(t *testing.T) {
		is := is.New(t)
		// "alicia" now only redirects to Alice; bob may take it.
		is.Equal(rename("bob", "alicia").Status, http.StatusNoContent)
		u, _, err := srv.Client().GetUserInfo("alicia")
		is.NoErr(err)
		is.Equal(u.UserName, "alicia")
		is.True(u.ID != alice.ID)
		r := srv.Do("GET", "/users/bob", nil)
		is.Equal(r.Header.Get("Location"), "/api/v1/users/alicia")
	})

	t.Run("old name path redirects admins too", func(t *testing.T) {
		is := is.New(t)
		r := rename("bob", "bobby")
		is.Equal(r.Status, http.StatusTemporaryRedirect)
		is.Equal(r.Header.Get("Location"), "/api/v1/admin/users/alicia/rename")
	})
}

func TestAdminListUsers(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	admin := srv.AdminClient()
	for i := range 5 {
		newAccount(t, srv, fmt.Sprintf("listed%d", i), gitea.VisibleTypePrivate)
	}

	list, resp, err := admin.AdminListUsers(gitea.AdminListUsersOptions{})
	is.NoErr(err)
	is.Equal(logins(list), []string{"admin", "listed0", "listed1", "listed2", "listed3", "listed4"})
	is.Equal(resp.Header.Get("X-Total-Count"), "6")
	is.Equal(resp.Header.Get("Link"), "")
	is.True(list[0].IsAdmin)
	is.Equal(list[1].Email, "listed0@example.com") // private users and their addresses are the admin's to see
	is.Equal(list[1].Visibility, gitea.VisibleTypePrivate)

	list, resp, err = admin.AdminListUsers(gitea.AdminListUsersOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
	is.NoErr(err)
	is.Equal(logins(list), []string{"listed1", "listed2"})
	is.Equal(resp.Header.Get("X-Total-Count"), "6")
	is.Equal(linkRels(t, resp.Header.Get("Link")), map[string]int{"first": 1, "prev": 1, "next": 3, "last": 3})

	list, _, err = admin.AdminListUsers(gitea.AdminListUsersOptions{LoginName: "LISTED3"})
	is.NoErr(err)
	is.Equal(logins(list), []string{"listed3"})
	list, _, err = admin.AdminListUsers(gitea.AdminListUsersOptions{LoginName: "listed"})
	is.NoErr(err)
	is.Equal(len(list), 0) // an exact name, not a keyword

	assertAPIError(t, srv.Do("GET", "/admin/users?page=abc", nil, adminHeader(srv)...), http.StatusBadRequest, "page: must be an integer")
	assertAPIError(t, srv.Do("GET", "/admin/users?limit=x", nil, adminHeader(srv)...), http.StatusBadRequest, "limit: must be an integer")
}

func TestAdminEmails(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	admin := srv.AdminClient()
	a, ac := newAccount(t, srv, "mailowner", gitea.VisibleTypePrivate)
	_, _, err := ac.AddEmail(gitea.CreateEmailOption{Emails: []string{"work@corp.example"}})
	is.NoErr(err)
	newAccount(t, srv, "someone", gitea.VisibleTypePublic)

	list, resp, err := admin.ListAdminEmails(gitea.ListAdminEmailsOptions{})
	is.NoErr(err)
	is.Equal(len(list), 4)
	is.Equal(resp.Header.Get("X-Total-Count"), "4")
	is.Equal(list[0].Username, "admin")
	is.True(list[0].Primary)
	is.Equal(*list[1], gitea.Email{Email: "mailowner@example.com", Verified: true, Primary: true, UserID: a.ID, Username: "mailowner"})
	is.Equal(*list[2], gitea.Email{Email: "work@corp.example", Verified: true, Primary: false, UserID: a.ID, Username: "mailowner"})

	list, resp, err = admin.ListAdminEmails(gitea.ListAdminEmailsOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 3}})
	is.NoErr(err)
	is.Equal(len(list), 3)
	is.Equal(resp.NextPage, 2)
	is.Equal(resp.LastPage, 2)

	list, _, err = admin.SearchAdminEmails(gitea.SearchAdminEmailsOptions{Query: "CORP"})
	is.NoErr(err)
	is.Equal(len(list), 1)
	is.Equal(list[0].Email, "work@corp.example")
	list, _, err = admin.SearchAdminEmails(gitea.SearchAdminEmailsOptions{Query: "mailowner"}) // by owner name too
	is.NoErr(err)
	is.Equal(len(list), 2)
	list, _, err = admin.SearchAdminEmails(gitea.SearchAdminEmailsOptions{Query: "nothing-matches"})
	is.NoErr(err)
	is.Equal(len(list), 0)
	list, _, err = admin.SearchAdminEmails(gitea.SearchAdminEmailsOptions{})
	is.NoErr(err)
	is.Equal(len(list), 4)
	assertAPIError(t, srv.Do("GET", "/admin/emails?page=abc", nil, adminHeader(srv)...), http.StatusBadRequest, "")
}
