package sqlstore_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/wire"
)

// TestIssueCreateStatements pins the statements POST R/issues sends for a
// plain issue once the caller's token is cached: on SQLite only BEGIN and
// COMMIT are parsed, the index, the row (with its search index), the
// counters, the activity record, the notification fan-out's job and the
// hook lookup run as statements prepared on the writer; on Postgres the
// same run through bun. What the prepared statements
// write is read back through the API: the index sequence, the times, the
// counters of open and closed issues, and the search index.
func TestIssueCreateStatements(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
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
			ctx := context.Background()
			admin, err := app.Users.Resolve(ctx, auth.Caller{}, "admin")
			is.NoErr(err)
			_, err = app.Repos.Create(ctx, auth.Caller{User: admin, Method: auth.MethodToken}, admin,
				repos.CreateInput{Name: "tracker"})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, admin.ID, "issueg", []string{"write:issue", "read:repository"})
			is.NoErr(err)

			do := func(method, path, body string, want int, out any) {
				t.Helper()
				req := httptest.NewRequest(method, "/api/v1/repos/admin/tracker"+path, strings.NewReader(body))
				req.Header.Set("Authorization", "token "+secret)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				app.HTTP.ServeHTTP(rec, req)
				if rec.Code != want {
					t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
				}
				if out != nil {
					is.NoErr(json.Unmarshal(rec.Body.Bytes(), out))
				}
			}
			post := func(body string) *gitea.Issue {
				t.Helper()
				var i gitea.Issue
				do(http.MethodPost, "/issues", body, http.StatusCreated, &i)
				return &i
			}
			post(`{"title":"first","body":"warms the token cache"}`)
			post(`{"title":"second","body":"and the statements"}`)

			var mu sync.Mutex
			var texts []string
			on := false
			app.DB.TraceStatements(func(q string) {
				mu.Lock()
				defer mu.Unlock()
				if on {
					texts = append(texts, q)
				}
			})
			mu.Lock()
			on = true
			mu.Unlock()
			prepared := app.DB.PreparedWriteRuns()
			created := post(`{"title":"third","body":"about zebrafish"}`)
			prepared = app.DB.PreparedWriteRuns() - prepared
			mu.Lock()
			on = false
			logged := append([]string(nil), texts...)
			mu.Unlock()
			t.Logf("statements: %d through bun %q, %d prepared", len(logged), logged, prepared)
			if b.name == "sqlite" {
				is.Equal(prepared, int64(6)) // index, row, counters, activity record, notification job, hooks
				is.Equal(len(logged), 2)     // BEGIN, COMMIT
			} else {
				is.Equal(prepared, int64(0))
				is.True(len(logged) <= 8)
			}

			is.Equal(created.Index, int64(3))
			is.Equal(created.Title, "third")
			is.Equal(created.Body, "about zebrafish")
			is.Equal(created.State, gitea.StateOpen)
			is.Equal(created.Poster.UserName, "admin")
			var got gitea.Issue
			do(http.MethodGet, "/issues/3", "", http.StatusOK, &got)
			is.Equal(got.ID, created.ID)
			is.True(got.Created.Equal(created.Created))
			is.True(got.Updated.Equal(created.Updated))
			is.Equal(got.Body, "about zebrafish")

			closed := post(`{"title":"fourth","body":"closed at birth","closed":true}`)
			is.Equal(closed.Index, int64(4))
			is.Equal(closed.State, gitea.StateClosed)
			is.True(closed.Closed != nil)
			var again gitea.Issue
			do(http.MethodGet, "/issues/4", "", http.StatusOK, &again)
			is.True(again.Closed != nil && again.Closed.Equal(*closed.Closed))

			var repo gitea.Repository
			do(http.MethodGet, "", "", http.StatusOK, &repo)
			is.Equal(repo.OpenIssues, 3) // four issues, one closed

			var found []*gitea.Issue
			do(http.MethodGet, "/issues?q=zebrafish", "", http.StatusOK, &found)
			is.Equal(len(found), 1)
			is.Equal(found[0].Index, int64(3))
		})
	}
}
