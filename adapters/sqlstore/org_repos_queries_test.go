package sqlstore_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/wire"
)

// TestOrgReposListingQueryCount pins issue 8's performance rule at the HTTP
// level: GET /orgs/{org}/repos?limit=50 by a member of every team sends the
// same number of SQL statements with 5 teams and 100 repositories as with 50
// teams and 400, on both backends (the whole request: caller, organisation,
// membership, page, permissions and rendering).
func TestOrgReposListingQueryCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			perShape := map[int]int64{}
			for _, shape := range []struct{ repos, teams int }{{100, 5}, {400, 50}} {
				is := is.New(t)
				cfg := b.cfg(t)
				settings := site.Defaults()
				settings.BaseURL = "http://127.0.0.1:3000"
				app, cleanup, err := wire.Init(t.Context(), wire.Options{Site: settings, DataDir: t.TempDir(),
					DSN: cfg.DSN, Log: slog.New(slog.DiscardHandler)})
				is.NoErr(err)
				t.Cleanup(cleanup)
				_, err = app.Prepare(t.Context())
				is.NoErr(err)
				member, o, _ := seedOrg(t, app.DB, shape.repos, shape.teams)
				_, secret, err := app.Users.Tokens().Create(context.Background(), member.ID, "orgc", []string{"read:organization"})
				is.NoErr(err)

				get := func() []*gitea.Repository {
					req := httptest.NewRequest(http.MethodGet, "/api/v1/orgs/"+o.Name+"/repos?limit=50", nil)
					req.Header.Set("Authorization", "token "+secret)
					rec := httptest.NewRecorder()
					app.HTTP.ServeHTTP(rec, req)
					body, _ := io.ReadAll(rec.Body)
					if rec.Code != http.StatusOK {
						t.Fatalf("GET repos: %d %s", rec.Code, body)
					}
					is.Equal(rec.Header().Get("X-Total-Count"), itoa(shape.repos)) // the member's teams reach every repository
					var list []*gitea.Repository
					is.NoErr(json.Unmarshal(body, &list))
					return list
				}
				get() // warms the token cache, as every later request finds it
				n := app.DB.CountQueries()
				n.Store(0)
				list := get()
				is.Equal(len(list), 50)
				is.True(list[0].Permissions != nil && list[0].Permissions.Pull)
				perShape[shape.teams] = n.Load()
			}
			is := is.New(t)
			t.Logf("statements per request: %v", perShape)
			is.Equal(perShape[5], perShape[50]) // the request's cost does not grow with teams or repositories
			is.True(perShape[50] <= 8)
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
