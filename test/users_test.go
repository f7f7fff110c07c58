package test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// userPassword is the password every account made by these tests has.
const userPassword = "correct-horse-1"

// newAccount makes an account with the given visibility through the admin
// API and returns it with a Basic-auth client signed in as it.
func newAccount(t *testing.T, srv *testserver.Server, name string, vis gitea.VisibleType) (*gitea.User, *gitea.Client) {
	t.Helper()
	no := false
	u, _, err := srv.AdminClient().AdminCreateUser(gitea.CreateUserOption{
		Username: name, Email: name + "@example.com", Password: userPassword,
		MustChangePassword: &no, Visibility: &vis,
	})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return u, srv.Client(gitea.SetBasicAuth(name, userPassword))
}

// basicAs is the Authorization header pair for srv.Do as name with userPassword.
func basicAs(name string) []string {
	return []string{"Authorization", testserver.Basic(name, userPassword)}
}

// assertAPIError checks a raw error answer: its status, its exact message and
// Gitea's error body shape ({message, url}).
func assertAPIError(t *testing.T, r testserver.Response, status int, msg string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d (body %s)", r.Status, status, r.Body)
	}
	if msg != "" && r.Message() != msg {
		t.Fatalf("message %q, want %q", r.Message(), msg)
	}
	assertErrorShape(t, r)
}

// assertInvalid checks a 422 whose message names field first: "<Field>: <text>".
func assertInvalid(t *testing.T, r testserver.Response, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422 (body %s)", r.Status, r.Body)
	}
	if !strings.HasPrefix(r.Message(), field+": ") || len(r.Message()) <= len(field)+2 {
		t.Fatalf("message %q does not name field %s", r.Message(), field)
	}
	assertErrorShape(t, r)
}

// assertErrorShape checks that an error body is JSON with a non-empty
// message and the url field Gitea's clients expect.
func assertErrorShape(t *testing.T, r testserver.Response) {
	t.Helper()
	var body map[string]any
	r.Decode(t, &body)
	if m, ok := body["message"].(string); !ok || m == "" {
		t.Fatalf("error body without message: %s", r.Body)
	}
	if _, ok := body["url"].(string); !ok {
		t.Fatalf("error body without url: %s", r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error content type %q", ct)
	}
}

// assertSDKStatus checks that an SDK call failed (or succeeded) with status.
func assertSDKStatus(t *testing.T, resp *gitea.Response, err error, status int) {
	t.Helper()
	if resp == nil {
		t.Fatalf("no response (err %v), want status %d", err, status)
	}
	if resp.StatusCode != status {
		t.Fatalf("status %d (err %v), want %d", resp.StatusCode, err, status)
	}
	if status >= 400 && err == nil {
		t.Fatalf("status %d but the SDK reported no error", status)
	}
}

// searchEnvelope is the raw shape of GET /users/search.
type searchEnvelope struct {
	Data []gitea.User `json:"data"`
	OK   bool         `json:"ok"`
}

func logins(list []*gitea.User) []string {
	out := make([]string, 0, len(list))
	for _, u := range list {
		out = append(out, u.UserName)
	}
	return out
}

func TestUserGetVisibility(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	pub, pubC := newAccount(t, srv, "pubby", gitea.VisibleTypePublic)
	_, limC := newAccount(t, srv, "limmy", gitea.VisibleTypeLimited)
	priv, privC := newAccount(t, srv, "privy", gitea.VisibleTypePrivate)
	anon := srv.Client()
	admin := srv.AdminClient()

	t.Run("public user to everyone", func(t *testing.T) {
		is := is.New(t)
		u, _, err := anon.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.ID, pub.ID)
		is.Equal(u.UserName, "pubby")
		is.Equal(u.Email, "")         // anonymous callers get no address
		is.Equal(u.IsAdmin, false)    // administrative facts are not for strangers
		is.True(u.LastLogin.IsZero()) // nor the last sign-in
		is.Equal(u.Language, "")      // nor the locale
		is.Equal(u.Visibility, gitea.VisibleTypePublic)
		is.Equal(u.HTMLURL, srv.URL+"/pubby")

		u, _, err = limC.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.Email, "pubby@example.com")
		is.Equal(u.IsActive, false) // only admins and the user itself see the state

		u, _, err = admin.GetUserInfo("PUBBY") // names are case-insensitive
		is.NoErr(err)
		is.Equal(u.UserName, "pubby")
		is.True(u.IsActive)
		is.Equal(u.Language, "") // a new account has none, as in Gitea
		is.Equal(u.Email, "pubby@example.com")
	})

	t.Run("limited user needs a signed-in caller", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := anon.GetUserInfo("limmy")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/users/limmy", nil), http.StatusNotFound, "user does not exist")

		u, _, err := pubC.GetUserInfo("limmy")
		is.NoErr(err)
		is.Equal(u.Visibility, gitea.VisibleTypeLimited)
		u, _, err = limC.GetUserInfo("limmy")
		is.NoErr(err)
		is.True(u.IsActive)
	})

	t.Run("private user only to itself and admins", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := anon.GetUserInfo("privy")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = pubC.GetUserInfo("privy")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = limC.GetUserInfo("privy")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// The 404 for a hidden user is the same as for a missing one.
		hidden := srv.Do("GET", "/users/privy", nil, basicAs("pubby")...)
		missing := srv.Do("GET", "/users/nobody", nil, basicAs("pubby")...)
		assertAPIError(t, hidden, http.StatusNotFound, missing.Message())

		u, _, err := privC.GetUserInfo("privy")
		is.NoErr(err)
		is.Equal(u.ID, priv.ID)
		is.Equal(u.Email, "privy@example.com")
		u, _, err = admin.GetUserInfo("privy")
		is.NoErr(err)
		is.Equal(u.Visibility, gitea.VisibleTypePrivate)
	})

	t.Run("missing user", func(t *testing.T) {
		_, resp, err := admin.GetUserInfo("ghost-user")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/users/ghost-user", nil), http.StatusNotFound, "user does not exist")
	})

	t.Run("hidden email shows a placeholder to others", func(t *testing.T) {
		is := is.New(t)
		yes := true
		s, _, err := pubC.UpdateUserSettings(gitea.UserSettingsOptions{HideEmail: &yes})
		is.NoErr(err)
		is.True(s.HideEmail)

		u, _, err := limC.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.Email, "pubby@noreply.127.0.0.1")
		u, _, err = anon.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.Email, "")
		u, _, err = pubC.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.Email, "pubby@example.com")
		u, _, err = admin.GetUserInfo("pubby")
		is.NoErr(err)
		is.Equal(u.Email, "pubby@example.com")
		me, _, err := pubC.GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.Email, "pubby@example.com")
	})
}

func TestUserGetRenamedRedirects(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	old, _ := newAccount(t, srv, "oldname", gitea.VisibleTypePublic)
	_, err := srv.AdminClient().AdminRenameUser("oldname", gitea.RenameUserOption{NewUsername: "newname"})
	is.NoErr(err)

	r := srv.Do("GET", "/users/oldname?x=1", nil)
	is.True(r.Status >= 300 && r.Status < 400)
	is.Equal(r.Header.Get("Location"), "/api/v1/users/newname?x=1")

	// A real client follows the redirect and lands on the renamed account.
	u, _, err := srv.Client().GetUserInfo("oldname")
	is.NoErr(err)
	is.Equal(u.ID, old.ID)
	is.Equal(u.UserName, "newname")

	// The old name of a hidden account must not reveal where it went.
	_, _ = newAccount(t, srv, "secretold", gitea.VisibleTypePrivate)
	_, err = srv.AdminClient().AdminRenameUser("secretold", gitea.RenameUserOption{NewUsername: "secretnew"})
	is.NoErr(err)
	assertAPIError(t, srv.Do("GET", "/users/secretold", nil), http.StatusNotFound, "user does not exist")
	newAccount(t, srv, "peeker", gitea.VisibleTypePublic)
	assertAPIError(t, srv.Do("GET", "/users/secretold", nil, basicAs("peeker")...), http.StatusNotFound, "user does not exist")
	r = srv.Do("GET", "/users/secretold", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword))
	is.Equal(r.Status, http.StatusMovedPermanently)
	is.Equal(r.Header.Get("Location"), "/api/v1/users/secretnew")

	// Once the renamed account is deleted, its old name is simply gone.
	_, err = srv.AdminClient().AdminDeleteUser("newname")
	is.NoErr(err)
	assertAPIError(t, srv.Do("GET", "/users/oldname", nil), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("GET", "/users/newname", nil), http.StatusNotFound, "")
}

func TestUserGetRestrictExploring(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.RestrictExploring = true }))
	_, c := newAccount(t, srv, "explorer", gitea.VisibleTypePublic)

	assertAPIError(t, srv.Do("GET", "/users/explorer", nil), http.StatusUnauthorized, "you must be signed in to search for users")
	assertAPIError(t, srv.Do("GET", "/users/search?q=ex", nil), http.StatusUnauthorized, "you must be signed in to search for users")
	u, _, err := c.GetUserInfo("explorer")
	is.NoErr(err)
	is.Equal(u.UserName, "explorer")
	list, _, err := c.SearchUsers(gitea.SearchUsersOption{KeyWord: "explo"})
	is.NoErr(err)
	is.Equal(logins(list), []string{"explorer"})
}

func TestUserSearch(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alpha, _ := newAccount(t, srv, "finder-alpha", gitea.VisibleTypePublic)
	newAccount(t, srv, "Finder-Beta", gitea.VisibleTypePublic)
	newAccount(t, srv, "finder-lim", gitea.VisibleTypeLimited)
	priv, privC := newAccount(t, srv, "finder-priv", gitea.VisibleTypePrivate)
	_, otherC := newAccount(t, srv, "unrelated", gitea.VisibleTypePublic)
	anon := srv.Client()

	t.Run("envelope and anonymous view", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/users/search?q=FINDER", nil)
		is.Equal(r.Status, http.StatusOK)
		var env searchEnvelope
		r.Decode(t, &env)
		is.True(env.OK)
		is.Equal(len(env.Data), 2) // public accounts only
		is.Equal(env.Data[0].UserName, "finder-alpha")
		is.Equal(env.Data[1].UserName, "Finder-Beta") // the name as typed, matched case-insensitively
		for _, u := range env.Data {
			is.Equal(u.Email, "") // anonymous callers get no addresses
		}
		is.Equal(r.Header.Get("X-Total-Count"), "2")

		list, _, err := anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "beta"})
		is.NoErr(err)
		is.Equal(logins(list), []string{"Finder-Beta"})
	})

	t.Run("signed-in view", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := otherC.SearchUsers(gitea.SearchUsersOption{KeyWord: "finder"})
		is.NoErr(err)
		is.Equal(logins(list), []string{"finder-alpha", "Finder-Beta", "finder-lim"})
		is.Equal(list[0].Email, "finder-alpha@example.com")
		is.Equal(resp.Header.Get("X-Total-Count"), "3")

		// A private account finds itself, an admin finds everyone.
		list, _, err = privC.SearchUsers(gitea.SearchUsersOption{KeyWord: "finder"})
		is.NoErr(err)
		is.Equal(logins(list), []string{"finder-alpha", "Finder-Beta", "finder-lim", "finder-priv"})
		list, _, err = srv.AdminClient().SearchUsers(gitea.SearchUsersOption{KeyWord: "finder"})
		is.NoErr(err)
		is.Equal(len(list), 4)

		// No keyword lists everyone visible, admin included.
		list, _, err = anon.SearchUsers(gitea.SearchUsersOption{})
		is.NoErr(err)
		is.Equal(logins(list), []string{"admin", "finder-alpha", "Finder-Beta", "unrelated"})
	})

	t.Run("uid filter", func(t *testing.T) {
		is := is.New(t)
		u, _, err := anon.GetUserByID(alpha.ID)
		is.NoErr(err)
		is.Equal(u.UserName, "finder-alpha")
		list, _, err := anon.SearchUsers(gitea.SearchUsersOption{UID: priv.ID})
		is.NoErr(err)
		is.Equal(len(list), 0) // hidden from anonymous callers
		list, _, err = privC.SearchUsers(gitea.SearchUsersOption{UID: priv.ID})
		is.NoErr(err)
		is.Equal(logins(list), []string{"finder-priv"})
		list, _, err = anon.SearchUsers(gitea.SearchUsersOption{UID: alpha.ID, KeyWord: "beta"})
		is.NoErr(err)
		is.Equal(len(list), 0) // both filters apply
		assertAPIError(t, srv.Do("GET", "/users/search?uid=x", nil), http.StatusBadRequest, "")
	})

	t.Run("bad paging parameters", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/users/search?page=abc", nil), http.StatusBadRequest, "page: must be an integer")
		assertAPIError(t, srv.Do("GET", "/users/search?limit=abc", nil), http.StatusBadRequest, "limit: must be an integer")
	})

	t.Run("like wildcards are literal", func(t *testing.T) {
		is := is.New(t)
		for _, q := range []string{"%", "_", "!"} {
			list, _, err := anon.SearchUsers(gitea.SearchUsersOption{KeyWord: q})
			is.NoErr(err)
			is.Equal(len(list), 0)
		}
	})
}

// linkRels parses a Link header into rel → page.
func linkRels(t *testing.T, h string) map[string]int {
	t.Helper()
	out := map[string]int{}
	if h == "" {
		return out
	}
	re := regexp.MustCompile(`^<([^>]+)>; rel="(\w+)"$`)
	for _, part := range strings.Split(h, ",") {
		m := re.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			t.Fatalf("bad Link part %q", part)
		}
		i := strings.Index(m[1], "page=")
		if i < 0 {
			t.Fatalf("Link without page: %q", m[1])
		}
		rest := m[1][i+len("page="):]
		if j := strings.IndexByte(rest, '&'); j >= 0 {
			rest = rest[:j]
		}
		p, err := strconv.Atoi(rest)
		if err != nil {
			t.Fatalf("Link page %q", rest)
		}
		out[m[2]] = p
	}
	return out
}

// testSearchPaging runs the search paging checks on one backend.
func testSearchPaging(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	for i := range 12 {
		newAccount(t, srv, fmt.Sprintf("pager%02d", i), gitea.VisibleTypePublic)
	}
	anon := srv.Client()

	// The default page is 10, whatever the site's general page size.
	list, resp, err := anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "pager"})
	is.NoErr(err)
	is.Equal(len(list), 10)
	is.Equal(list[0].UserName, "pager00")
	is.Equal(resp.Header.Get("X-Total-Count"), "12")
	is.Equal(resp.NextPage, 2)
	is.Equal(resp.LastPage, 2)
	is.Equal(resp.PrevPage, 0)
	link := resp.Header.Get("Link")
	is.True(strings.Contains(link, srv.URL+"/api/v1/users/search?"))
	is.True(strings.Contains(link, "q=pager"))
	is.Equal(linkRels(t, link), map[string]int{"next": 2, "last": 2})

	list, resp, err = anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "pager", ListOptions: gitea.ListOptions{Page: 2}})
	is.NoErr(err)
	is.Equal(logins(list), []string{"pager10", "pager11"})
	is.Equal(linkRels(t, resp.Header.Get("Link")), map[string]int{"first": 1, "prev": 1})

	list, resp, err = anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "pager", ListOptions: gitea.ListOptions{Page: 2, PageSize: 5}})
	is.NoErr(err)
	is.Equal(logins(list), []string{"pager05", "pager06", "pager07", "pager08", "pager09"})
	is.Equal(linkRels(t, resp.Header.Get("Link")), map[string]int{"first": 1, "prev": 1, "next": 3, "last": 3})

	list, resp, err = anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "pager", ListOptions: gitea.ListOptions{Page: 9, PageSize: 5}})
	is.NoErr(err)
	is.Equal(len(list), 0) // past the end: empty, not an error
	is.Equal(resp.Header.Get("X-Total-Count"), "12")

	// A page size above the maximum is the maximum.
	r := srv.Do("GET", "/users/search?q=pager&limit=1000", nil)
	is.Equal(r.Status, http.StatusOK)
	var env searchEnvelope
	r.Decode(t, &env)
	is.Equal(len(env.Data), 12)
	is.Equal(r.Header.Get("Link"), "")

	// A single full page has no Link header.
	r = srv.Do("GET", "/users/search?q=pager01", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("Link"), "")
	is.Equal(r.Header.Get("X-Total-Count"), "1")
}

func TestUserSearchPaging(t *testing.T) {
	t.Parallel()
	backends(t, testSearchPaging)
}

func TestUserSearchUsersPageDisabled(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.DisableUsersPage = true }))
	newAccount(t, srv, "hidden-page", gitea.VisibleTypePublic)
	assertAPIError(t, srv.Do("GET", "/users/search?q=hidden", nil), http.StatusNotFound, "")
	_, resp, err := srv.AdminClient().SearchUsers(gitea.SearchUsersOption{KeyWord: "hidden"})
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	// Profiles stay readable; only the listing is off.
	u, _, err := srv.Client().GetUserInfo("hidden-page")
	is.NoErr(err)
	is.Equal(u.UserName, "hidden-page")
}

func TestUserSelf(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	created, c := newAccount(t, srv, "selfie", gitea.VisibleTypePrivate)

	me, _, err := c.GetMyUserInfo()
	is.NoErr(err)
	is.Equal(me.ID, created.ID)
	is.Equal(me.UserName, "selfie")
	is.Equal(me.Email, "selfie@example.com")
	is.Equal(me.IsAdmin, false)
	is.True(me.IsActive)
	is.Equal(me.Visibility, gitea.VisibleTypePrivate)
	is.True(!me.Created.IsZero())
	is.True(time.Since(me.Created) < time.Hour)

	tok := srv.CreateToken("selfie", userPassword, "read:user")
	me2, _, err := srv.Client(gitea.SetToken(tok)).GetMyUserInfo()
	is.NoErr(err)
	is.Equal(me2.ID, created.ID)

	assertAPIError(t, srv.Do("GET", "/user", nil), http.StatusUnauthorized, "token is required")
	assertAPIError(t, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("selfie", "wrong-password")),
		http.StatusUnauthorized, "")
}

func TestUserSettings(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, c := newAccount(t, srv, "setter", gitea.VisibleTypePublic)
	str := func(s string) *string { return &s }

	t.Run("defaults", func(t *testing.T) {
		is := is.New(t)
		s, _, err := c.GetUserSettings()
		is.NoErr(err)
		// Gitea 1.27's defaults for a new account (TestSettingsGiteaDefaults).
		is.Equal(*s, gitea.UserSettings{Theme: "gitea-auto"})
	})

	t.Run("update", func(t *testing.T) {
		is := is.New(t)
		yes := true
		s, _, err := c.UpdateUserSettings(gitea.UserSettingsOptions{
			FullName: str("Set Ter"), Website: str("https://example.com/me"), Description: str("about"),
			Location: str("Earth"), Language: str("de-DE"), Theme: str("gitea-dark"),
			DiffViewStyle: str("split"), HideActivity: &yes,
		})
		is.NoErr(err)
		is.Equal(*s, gitea.UserSettings{FullName: "Set Ter", Website: "https://example.com/me", Description: "about",
			Location: "Earth", Language: "de-DE", Theme: "gitea-dark", DiffViewStyle: "split", HideActivity: true})

		// Fields left out stay as they are.
		s, _, err = c.UpdateUserSettings(gitea.UserSettingsOptions{Location: str("Mars")})
		is.NoErr(err)
		is.Equal(s.FullName, "Set Ter")
		is.Equal(s.Location, "Mars")
		got, _, err := c.GetUserSettings()
		is.NoErr(err)
		is.Equal(*got, *s)

		// The profile shows the new values.
		u, _, err := srv.Client().GetUserInfo("setter")
		is.NoErr(err)
		is.Equal(u.FullName, "Set Ter")
		is.Equal(u.Website, "https://example.com/me")
		is.Equal(u.Location, "Mars")

		// An empty website clears it.
		s, _, err = c.UpdateUserSettings(gitea.UserSettingsOptions{Website: str("")})
		is.NoErr(err)
		is.Equal(s.Website, "")
	})

	t.Run("validation", func(t *testing.T) {
		is := is.New(t)
		before, _, err := c.GetUserSettings()
		is.NoErr(err)
		h := basicAs("setter")
		cases := []struct {
			body  string
			field string
		}{
			{`{"website":"ftp://example.com"}`, "Website"},
			{`{"website":"javascript:alert(1)"}`, "Website"},
			{`{"website":"not a url"}`, "Website"},
			{`{"diff_view_style":"sideways"}`, "DiffViewStyle"},
			{`{"full_name":"` + strings.Repeat("x", 101) + `"}`, "FullName"},
			{`{"description":"` + strings.Repeat("x", 256) + `"}`, "Description"},
			{`{"location":"` + strings.Repeat("x", 51) + `"}`, "Location"},
			{`{"hide_email":"yes"}`, "HideEmail"},
			// One bad field rejects the whole change.
			{`{"full_name":"Changed","website":"nope"}`, "Website"},
		}
		for _, c := range cases {
			assertInvalid(t, srv.Do("PATCH", "/user/settings", c.body, h...), c.field)
		}
		_, resp, err := c.UpdateUserSettings(gitea.UserSettingsOptions{Website: str("mailto:x@example.com")})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
		is.True(strings.HasPrefix(err.Error(), "Website: "))
		after, _, err := c.GetUserSettings()
		is.NoErr(err)
		is.Equal(*after, *before)
	})

	t.Run("needs a caller", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/user/settings", nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("PATCH", "/user/settings", `{"full_name":"x"}`), http.StatusUnauthorized, "token is required")
	})
}

func TestUserEmails(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	me, c := newAccount(t, srv, "mailer", gitea.VisibleTypePublic)
	newAccount(t, srv, "other-mailer", gitea.VisibleTypePublic)
	h := basicAs("mailer")

	t.Run("list", func(t *testing.T) {
		is := is.New(t)
		list, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(*list[0], gitea.Email{Email: "mailer@example.com", Verified: true, Primary: true, UserID: me.ID, Username: "mailer"})
	})

	t.Run("add", func(t *testing.T) {
		is := is.New(t)
		// Gitea's AddEmail (routers/api/v1/user/email.go) answers 201 with
		// the doer's whole list after the change ("emails, err :=
		// user_model.GetEmailAddresses(ctx, ctx.Doer.ID) …
		// ctx.JSON(http.StatusCreated, apiEmails)"), not only the new ones.
		all, resp, err := c.AddEmail(gitea.CreateEmailOption{Emails: []string{"m2@example.com", "M3@Example.com"}})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(len(all), 3)
		byAddr := map[string]*gitea.Email{}
		for _, e := range all {
			byAddr[e.Email] = e
			is.Equal(e.UserID, me.ID)
			is.Equal(e.Username, "mailer")
		}
		is.True(byAddr["mailer@example.com"].Primary)
		is.True(byAddr["m2@example.com"] != nil && !byAddr["m2@example.com"].Primary)
		is.True(byAddr["M3@Example.com"] != nil)
		list, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 3)
		is.Equal(list, all) // the same list, in the same order, as GET /user/emails
	})

	t.Run("add rejects and writes nothing", func(t *testing.T) {
		is := is.New(t)
		cases := []struct {
			name   string
			emails any
		}{
			{"empty list", []string{}},
			{"missing list", nil},
			{"own address again", []string{"m2@example.com"}},
			{"own address other case", []string{"MAILER@example.com"}},
			{"someone else's", []string{"other-mailer@example.com"}},
			{"invalid", []string{"not-an-address"}},
			{"display name", []string{"Bob <bob@example.com>"}},
			{"twice in one call", []string{"twice@example.com", "TWICE@example.com"}},
			{"one bad among good", []string{"fresh1@example.com", "other-mailer@example.com"}},
			{"one invalid among good", []string{"fresh2@example.com", "@@"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				body := map[string]any{}
				if tc.emails != nil {
					body["emails"] = tc.emails
				}
				assertInvalid(t, srv.Do("POST", "/user/emails", body, h...), "Emails")
			})
		}
		list, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 3)
		_, resp, err := c.AddEmail(gitea.CreateEmailOption{Emails: []string{"x"}})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := c.DeleteEmail(gitea.DeleteEmailOption{Emails: []string{"m2@example.com"}})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)

		assertInvalid(t, srv.Do("DELETE", "/user/emails", map[string]any{"emails": []string{"mailer@example.com"}}, h...), "Emails")
		assertInvalid(t, srv.Do("DELETE", "/user/emails", map[string]any{"emails": []string{}}, h...), "Emails")
		assertAPIError(t, srv.Do("DELETE", "/user/emails", map[string]any{"emails": []string{"never@example.com"}}, h...),
			http.StatusNotFound, "")
		// Another user's address is as unknown as a missing one.
		assertAPIError(t, srv.Do("DELETE", "/user/emails", map[string]any{"emails": []string{"other-mailer@example.com"}}, h...),
			http.StatusNotFound, "")
		// All or nothing: a missing address keeps the others.
		assertAPIError(t, srv.Do("DELETE", "/user/emails", map[string]any{"emails": []string{"M3@Example.com", "never@example.com"}}, h...),
			http.StatusNotFound, "")
		// Addresses match case-insensitively.
		resp, err = c.DeleteEmail(gitea.DeleteEmailOption{Emails: []string{"m3@example.com"}})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)

		list, _, err := c.ListEmails(gitea.ListEmailsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Email, "mailer@example.com")

		// A deleted address is free for someone else.
		oc := srv.Client(gitea.SetBasicAuth("other-mailer", userPassword))
		_, _, err = oc.AddEmail(gitea.CreateEmailOption{Emails: []string{"m2@example.com"}})
		is.NoErr(err)
	})

	t.Run("needs a caller", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/user/emails", nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("POST", "/user/emails", `{"emails":["a@example.com"]}`), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("DELETE", "/user/emails", `{"emails":["a@example.com"]}`), http.StatusUnauthorized, "token is required")
	})
}

var hex40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

func TestUserTokens(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, c := newAccount(t, srv, "tokener", gitea.VisibleTypePublic)
	newAccount(t, srv, "stranger", gitea.VisibleTypePublic)

	var first *gitea.AccessToken
	t.Run("create", func(t *testing.T) {
		is := is.New(t)
		tok, resp, err := c.CreateAccessToken(gitea.CreateAccessTokenOption{
			Name: "ci", Scopes: []gitea.AccessTokenScope{gitea.AccessTokenScope("read:user"), gitea.AccessTokenScope("write:repository")}})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.True(hex40.MatchString(tok.Token))
		is.Equal(tok.TokenLastEight, tok.Token[32:])
		is.Equal(tok.Name, "ci")
		is.True(tok.ID > 0)
		is.True(len(tok.Scopes) == 2)
		is.True(time.Since(tok.Created) < time.Hour)
		first = tok

		// The secret works as a credential.
		me, _, err := srv.Client(gitea.SetToken(tok.Token)).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "tokener")
	})

	t.Run("create rejects", func(t *testing.T) {
		h := basicAs("tokener")
		assertInvalid(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"ci","scopes":["read:user"]}`, h...), "Name")
		assertInvalid(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"","scopes":["read:user"]}`, h...), "Name")
		assertInvalid(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"x","scopes":["read:nonsense"]}`, h...), "Scopes")
		assertInvalid(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"x","scopes":[]}`, h...), "Scopes")
		assertInvalid(t, srv.Do("POST", "/users/tokener/tokens", `{"name":["x"]}`, h...), "Name")
	})

	t.Run("list hides secrets", func(t *testing.T) {
		is := is.New(t)
		for i := range 3 {
			_, _, err := c.CreateAccessToken(gitea.CreateAccessTokenOption{
				Name: fmt.Sprintf("extra %d", i), Scopes: []gitea.AccessTokenScope{"read:user"}})
			is.NoErr(err)
		}
		list, resp, err := c.ListAccessTokens(gitea.ListAccessTokensOptions{})
		is.NoErr(err)
		is.Equal(len(list), 4)
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		for _, tk := range list {
			is.Equal(tk.Token, "")
			is.Equal(len(tk.TokenLastEight), 8)
		}
		is.Equal(list[0].Name, "ci")
		is.Equal(list[0].TokenLastEight, first.TokenLastEight)
		// The raw body has no secret either.
		r := srv.Do("GET", "/users/tokener/tokens", nil, basicAs("tokener")...)
		is.Equal(r.Status, http.StatusOK)
		is.True(!strings.Contains(string(r.Body), first.Token))

		list, resp, err = c.ListAccessTokens(gitea.ListAccessTokensOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		is.Equal(resp.PrevPage, 1)
		is.Equal(resp.FirstPage, 1)
		is.Equal(resp.NextPage, 0)
		assertAPIError(t, srv.Do("GET", "/users/tokener/tokens?page=abc", nil, basicAs("tokener")...), http.StatusBadRequest, "")
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		// Basic auth with a password is required: anonymous or token callers get 401.
		assertAPIError(t, srv.Do("GET", "/users/tokener/tokens", nil), http.StatusUnauthorized, "auth required")
		assertAPIError(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"n","scopes":["all"]}`), http.StatusUnauthorized, "")
		assertAPIError(t, srv.Do("DELETE", "/users/tokener/tokens/ci", nil), http.StatusUnauthorized, "")
		assertAPIError(t, srv.Do("GET", "/users/tokener/tokens", nil, "Authorization", "token "+first.Token),
			http.StatusUnauthorized, "auth required")
		// Another user gets 403; an admin may manage anyone's tokens.
		msg := "doer should be the site admin or be same as the contextUser"
		assertAPIError(t, srv.Do("GET", "/users/tokener/tokens", nil, basicAs("stranger")...), http.StatusForbidden, msg)
		assertAPIError(t, srv.Do("POST", "/users/tokener/tokens", `{"name":"n","scopes":["all"]}`, basicAs("stranger")...),
			http.StatusForbidden, msg)
		assertAPIError(t, srv.Do("DELETE", "/users/tokener/tokens/ci", nil, basicAs("stranger")...), http.StatusForbidden, msg)
		adminH := []string{"Authorization", testserver.Basic("admin", srv.AdminPassword)}
		r := srv.Do("GET", "/users/tokener/tokens", nil, adminH...)
		is.Equal(r.Status, http.StatusOK)
		var list []gitea.AccessToken
		r.Decode(t, &list)
		is.Equal(len(list), 4)
		assertAPIError(t, srv.Do("GET", "/users/nobody-here/tokens", nil, adminH...), http.StatusNotFound, "")
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := c.DeleteAccessToken(first.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		// The deleted token no longer authenticates.
		assertAPIError(t, srv.Do("GET", "/user", nil, "Authorization", "token "+first.Token), http.StatusUnauthorized, "")

		resp, err = c.DeleteAccessToken("extra 0") // by name, with a space in it
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)

		resp, err = c.DeleteAccessToken(first.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = c.DeleteAccessToken("no such token")
		assertSDKStatus(t, resp, err, http.StatusNotFound)

		// A token of another user is not reachable through one's own path.
		stranger := srv.Client(gitea.SetBasicAuth("stranger", userPassword))
		st, _, err := stranger.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "mine", Scopes: []gitea.AccessTokenScope{"read:user"}})
		is.NoErr(err)
		resp, err = c.DeleteAccessToken(st.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// An admin deletes it through the owner's path.
		r := srv.Do("DELETE", fmt.Sprintf("/users/stranger/tokens/%d", st.ID), nil,
			"Authorization", testserver.Basic("admin", srv.AdminPassword))
		is.Equal(r.Status, http.StatusNoContent)

		list, _, err := c.ListAccessTokens(gitea.ListAccessTokensOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
		// The name is free again.
		_, _, err = c.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "ci", Scopes: []gitea.AccessTokenScope{"read:user"}})
		is.NoErr(err)
	})
}
