package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestSmoke walks the first steps a new site's administrator takes, on both backends.
func TestSmoke(t *testing.T) {
	t.Parallel()
	backends := map[string][]testserver.Option{"sqlite": nil, "postgres": {testserver.OnPostgres()}}
	for name, opts := range backends {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			srv := testserver.Start(t, opts...)
			is.True(srv.AdminPassword != "")

			v, _, err := srv.Client().ServerVersion()
			is.NoErr(err)
			is.Equal(v, "1.27.0+depot.0.1.0")

			me, _, err := srv.AdminClient().GetMyUserInfo()
			is.NoErr(err)
			is.Equal(me.UserName, "admin")
			is.True(me.IsAdmin)

			tok := srv.CreateToken("admin", srv.AdminPassword, "read:user")
			me2, _, err := srv.Client(gitea.SetToken(tok)).GetMyUserInfo()
			is.NoErr(err)
			is.Equal(me2.ID, me.ID)

			r := srv.Do("GET", "/user", nil)
			is.Equal(r.Status, http.StatusUnauthorized)
			is.Equal(r.Message(), "token is required")
			is.Equal(r.Header.Get("X-Content-Type-Options"), "nosniff")
		})
	}
}
