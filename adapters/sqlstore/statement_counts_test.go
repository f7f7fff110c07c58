package sqlstore_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/wire"
)

// statementApp starts the whole service on backend b for a statement-count
// test and returns it with its administrator and a caller acting as them.
func statementApp(t *testing.T, b backend) (*wire.App, *user.User, auth.Caller) {
	t.Helper()
	cfg := b.cfg(t)
	settings := site.Defaults()
	settings.BaseURL = "http://127.0.0.1:3000"
	app, cleanup, err := wire.Init(t.Context(), wire.Options{Site: settings, DataDir: t.TempDir(),
		DSN: cfg.DSN, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	if _, err := app.Prepare(t.Context()); err != nil {
		t.Fatal(err)
	}
	admin, err := app.Users.Resolve(context.Background(), auth.Caller{}, "admin")
	if err != nil {
		t.Fatal(err)
	}
	return app, admin, auth.Caller{User: admin, Method: auth.MethodToken}
}

// createUsers creates an account for each name inside tx, in order.
func createUsers(ctx context.Context, tx ports.Stores, names ...string) ([]*user.User, error) {
	people := make([]*user.User, 0, len(names))
	for _, name := range names {
		u := newUser(name)
		if err := tx.Users.Create(ctx, u); err != nil {
			return nil, err
		}
		people = append(people, u)
	}
	return people, nil
}

// statementCounter counts the statements one GET of the API runs, through
// bun and through the prepared reads, as the holder of a token.
type statementCounter struct {
	t      *testing.T
	app    *wire.App
	secret string
	mu     sync.Mutex
	texts  []string
}

// newStatementCounter traces app's statements for GETs made with secret.
func newStatementCounter(t *testing.T, app *wire.App, secret string) *statementCounter {
	c := &statementCounter{t: t, app: app, secret: secret}
	app.DB.TraceStatements(func(q string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.texts = append(c.texts, q[:min(len(q), 120)])
	})
	return c
}

// get answers GET /api/v1/<path>, decoded into out; anything but 200 fails.
func (c *statementCounter) get(path string, out any) {
	c.t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/v1/"+path, nil)
	req.Header.Set("Authorization", "token "+c.secret)
	rec := httptest.NewRecorder()
	c.app.HTTP.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		c.t.Fatalf("GET %s: %v", path, err)
	}
}

// countBuilt is count for an answer the server keeps (the pages of the pull
// request list): the warming request asks with another query string, so
// the counted one is built, not answered from the kept page.
func (c *statementCounter) countBuilt(path string, out any) (int64, []string) {
	c.t.Helper()
	return c.countAfter(path+"&warm=1", path, out)
}

// count runs GET path twice — the first warms the token cache and
// prepares the statements — and returns the statements of the second and
// their texts, its answer decoded into out.
func (c *statementCounter) count(path string, out any) (int64, []string) {
	c.t.Helper()
	return c.countAfter(path, path, out)
}

// countAfter counts the statements of GET path after a warming GET warm.
func (c *statementCounter) countAfter(warm, path string, out any) (int64, []string) {
	c.t.Helper()
	c.get(warm, out)
	c.mu.Lock()
	c.texts = nil
	c.mu.Unlock()
	prepared := c.app.DB.PreparedReadRuns()
	c.get(path, out)
	c.mu.Lock()
	defer c.mu.Unlock()
	return int64(len(c.texts)) + c.app.DB.PreparedReadRuns() - prepared, append([]string(nil), c.texts...)
}
