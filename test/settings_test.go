package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

func TestSiteSettings(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	anon := srv.Client()

	t.Run("api", func(t *testing.T) {
		is := is.New(t)
		s, resp, err := anon.GetGlobalAPISettings()
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(*s, gitea.GlobalAPISettings{MaxResponseItems: 50, DefaultPagingNum: 30,
			DefaultGitTreesPerPage: 1000, DefaultMaxBlobSize: 10 << 20})
	})

	t.Run("ui", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalUISettings()
		is.NoErr(err)
		is.True(s.DefaultTheme != "")
		is.True(len(s.AllowedReactions) > 0)
		is.Equal(s.AllowedReactions[0], "+1")
		is.True(len(s.CustomEmojis) > 0)
	})

	t.Run("attachment", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalAttachmentSettings()
		is.NoErr(err)
		is.True(s.Enabled)
		is.True(s.MaxSize > 0)
		is.True(s.MaxFiles > 0)
		for _, ext := range strings.Split(s.AllowedTypes, ",") {
			is.True(strings.HasPrefix(ext, "."))
		}
	})

	t.Run("repository", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalRepoSettings()
		is.NoErr(err)
		is.Equal(s.StarsDisabled, false)
		is.Equal(s.MirrorsDisabled, false)
	})

	t.Run("signed-in callers get the same", func(t *testing.T) {
		is := is.New(t)
		s, _, err := srv.AdminClient().GetGlobalAPISettings()
		is.NoErr(err)
		is.Equal(s.DefaultPagingNum, 30)
	})

	t.Run("read only", func(t *testing.T) {
		for _, p := range []string{"/settings/api", "/settings/ui", "/settings/attachment", "/settings/repository"} {
			r := srv.Do("POST", p, `{}`, adminHeader(srv)...)
			assertAPIError(t, r, http.StatusMethodNotAllowed, "")
			if r.Header.Get("Allow") != "GET" {
				t.Fatalf("%s Allow %q", p, r.Header.Get("Allow"))
			}
		}
	})
}

func TestSiteSettingsReflectConfiguration(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.DefaultPagingNum = 3
		s.MaxResponseItems = 4
		s.EnableStars = false
	}))
	anon := srv.Client()
	s, _, err := anon.GetGlobalAPISettings()
	is.NoErr(err)
	is.Equal(s.DefaultPagingNum, 3)
	is.Equal(s.MaxResponseItems, 4)
	rs, _, err := anon.GetGlobalRepoSettings()
	is.NoErr(err)
	is.True(rs.StarsDisabled)

	// The advertised numbers are the ones lists obey.
	for _, n := range []string{"p1", "p2", "p3", "p4", "p5"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	admin := srv.AdminClient()
	list, resp, err := admin.AdminListUsers(gitea.AdminListUsersOptions{})
	is.NoErr(err)
	is.Equal(len(list), 3) // default page
	is.Equal(resp.Header.Get("X-Total-Count"), "6")
	is.Equal(resp.LastPage, 2)
	r := srv.Do("GET", "/admin/users?limit=100", nil, adminHeader(srv)...)
	is.Equal(r.Status, http.StatusOK)
	var users []gitea.User
	r.Decode(t, &users)
	is.Equal(len(users), 4) // capped at the maximum
	// The search's default of 10 is capped at the maximum too.
	found, _, err := anon.SearchUsers(gitea.SearchUsersOption{KeyWord: "p"})
	is.NoErr(err)
	is.Equal(len(found), 4)
}

func TestSiteSettingsSignInRequired(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.RequireSignInView = true }))
	for _, p := range []string{"/settings/api", "/settings/ui", "/settings/attachment", "/settings/repository", "/users/search", "/users/admin"} {
		assertAPIError(t, srv.Do("GET", p, nil), http.StatusForbidden, "Only signed in user is allowed to call APIs.")
	}
	// The version stays public so that clients can connect before signing in.
	v, _, err := srv.Client().ServerVersion()
	is.NoErr(err)
	is.True(v != "")
	s, _, err := srv.AdminClient().GetGlobalAPISettings()
	is.NoErr(err)
	is.Equal(s.DefaultPagingNum, 30)
}

func TestVersion(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)

	r := srv.Do("GET", "/version", nil)
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"))
	var v struct {
		Version string `json:"version"`
	}
	r.Decode(t, &v)
	is.Equal(v.Version, "1.27.0+depot.0.1.0")

	// The SDK reads the version when it connects and enables features by it.
	c, err := gitea.NewClient(srv.URL)
	is.NoErr(err)
	got, _, err := c.ServerVersion()
	is.NoErr(err)
	is.Equal(got, v.Version)
	is.NoErr(c.CheckServerVersionConstraint(">= 1.22"))
	is.True(c.CheckServerVersionConstraint(">= 2.0") != nil)

	assertAPIError(t, srv.Do("DELETE", "/version", nil), http.StatusMethodNotAllowed, "method not allowed")
}
