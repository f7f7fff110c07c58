package http_test

// The benchmarks live in an external test package because they assemble the
// whole service through wire, which imports this package.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/wire"
)

// benchApp is the assembled service on SQLite in a temporary directory, with
// its bootstrap administrator, their password and a read:user token of theirs.
type benchApp struct {
	app      *wire.App
	admin    *user.User
	password string
	token    string
}

func newBenchApp(b *testing.B) benchApp {
	b.Helper()
	return newBenchAppWith(b, func(*site.Settings) {})
}

// newBenchAppWith is newBenchApp with the site's settings changed by set
// first.
func newBenchAppWith(b *testing.B, set func(*site.Settings)) benchApp {
	b.Helper()
	ctx := context.Background()
	settings := site.Defaults()
	settings.BaseURL = "http://127.0.0.1:3000"
	set(&settings)
	app, cleanup, err := wire.Init(ctx, wire.Options{
		Site: settings, DataDir: b.TempDir(), Log: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	pw, err := app.Prepare(ctx)
	if err != nil {
		b.Fatal(err)
	}
	admin, err := app.Users.Resolve(ctx, auth.Caller{}, "admin")
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := app.Users.Tokens().Create(ctx, admin.ID, "bench", []string{"read:user"})
	if err != nil {
		b.Fatal(err)
	}
	return benchApp{app: app, admin: admin, password: pw, token: secret}
}

// repoToken is a write:repository,read:user token of the administrator's, as
// `make bench` sends to the repository routes.
func (a benchApp) repoToken(b *testing.B) http.Header {
	b.Helper()
	_, secret, err := a.app.Users.Tokens().Create(context.Background(), a.admin.ID, "bench-repos",
		[]string{"write:repository", "read:user"})
	if err != nil {
		b.Fatal(err)
	}
	return http.Header{"Authorization": {"token " + secret}}
}

// benchHandler calls the handler directly with a recorder, from every P: the
// service's own cost without the network.
func benchHandler(b *testing.B, h http.Handler, path string, header http.Header) {
	b.Helper()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := serveGet(h, path, header)
			if rec.Code != http.StatusOK {
				b.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
				return
			}
		}
	})
}

// benchCPU calls the handler directly, one request at a time, and reports
// the process's CPU time per request (user and system, all threads: the
// request's work and the garbage collection it causes; see processCPU),
// which a machine loaded by other work inflates far less than ns/op.
func benchCPU(b *testing.B, h http.Handler, path string, header http.Header) {
	b.Helper()
	get := func() {
		rec := serveGet(h, path, header)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	get() // caches (tokens, prepared statements) are warm for every later request
	b.ReportAllocs()
	n := 0
	cpu0 := processCPU(b)
	for b.Loop() {
		get()
		n++
	}
	b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
}

// loopbackConns is how many keep-alive connections the loopback benchmarks
// keep busy, as many as `make bench` drives the real server with.
const loopbackConns = 32

// benchLoopback serves h on a loopback port and sends keep-alive requests on
// loopbackConns connections: handler plus net/http on both ends, in one
// process. A CPU profile focused on net/http.(*conn).serve is the server side.
func benchLoopback(b *testing.B, h http.Handler, path string, header http.Header) {
	b.Helper()
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: loopbackConns, MaxIdleConnsPerHost: loopbackConns}}
	b.Cleanup(client.CloseIdleConnections)
	b.SetParallelism(max(1, loopbackConns/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
			if err != nil {
				b.Error(err)
				return
			}
			for k, v := range header {
				req.Header[k] = v
			}
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("GET %s: %d", path, resp.StatusCode)
				return
			}
		}
	})
}

// BenchmarkVersion is GET /api/v1/version: routing, middleware and JSON,
// no authentication and no database.
func BenchmarkVersion(b *testing.B) {
	a := newBenchApp(b)
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, "/api/v1/version", nil) })
	b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, "/api/v1/version", nil) })
}

// BenchmarkGetUserToken is GET /api/v1/user with an access token: the token
// cache answers after the first request, then the caller is rendered as JSON.
func BenchmarkGetUserToken(b *testing.B) {
	a := newBenchApp(b)
	h := http.Header{"Authorization": {"token " + a.token}}
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, "/api/v1/user", h) })
	b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, "/api/v1/user", h) })
}

// BenchmarkGetUserBasic is GET /api/v1/user with Basic auth and the
// password: the verifier cache hits after the first request, so Argon2id is
// paid once.
func BenchmarkGetUserBasic(b *testing.B) {
	a := newBenchApp(b)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.SetBasicAuth("admin", a.password)
	h := http.Header{"Authorization": req.Header["Authorization"]}
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, "/api/v1/user", h) })
}

// BenchmarkGetRepoToken is GET /api/v1/repos/{owner}/{repo} with a token:
// the token cache answers, the repository is resolved by owner and name,
// the caller's permission computed, and the repository rendered as JSON.
// The repository was made with auto_init, as `make bench`'s is.
func BenchmarkGetRepoToken(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	_, err := a.app.Repos.Create(context.Background(), auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
		repos.CreateInput{Name: "init-0001", AutoInit: true, License: "MIT", Gitignores: "Go"})
	if err != nil {
		b.Fatal(err)
	}
	const path = "/api/v1/repos/admin/init-0001"
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, path, h) })
	b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, path, h) })
}

// benchSearchRepos is how many repositories BenchmarkSearchRepos searches, as
// many as `make bench` creates.
const benchSearchRepos = 10_000

// seedRepos inserts n repositories of owner named bench-00000, … in one
// transaction through the stores (rows only: search reads no Git data), one
// in ten with a description, each updated a second after the previous.
func seedRepos(b *testing.B, a benchApp, n int) {
	b.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := a.app.DB.InTx(context.Background(), func(ctx context.Context, tx ports.Stores) error {
		for i := range n {
			name := fmt.Sprintf("bench-%05d", i)
			r := &repository.Repository{
				Owner: repository.Owner{ID: a.admin.ID, Name: a.admin.Name, Kind: a.admin.Kind, Visibility: a.admin.Visibility},
				Name:  name, LowerName: strings.ToLower(name), Empty: true,
				DefaultBranch: repository.DefaultBranch, ObjectFormat: "sha1",
				Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
				Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
				Created: t0.Add(time.Duration(i) * time.Second), Updated: t0.Add(time.Duration(i) * time.Second),
			}
			if i%10 == 0 {
				r.Description = fmt.Sprintf("Repository %d, seeded by the benchmark", i)
			}
			if err := tx.Repos.Create(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSearchRepos is GET /api/v1/repos/search over 10,000 repositories
// with a token, a page of 10, as `make bench` drives it: "keyword" matches
// ten names (bench-00420 to bench-00429), "sorted" matches all and sorts
// them by last update, newest first.
//
// "keyword-user" and "sorted-user" are "keyword" and "sorted" as an ordinary
// user (no site admin) asks them, whose
// search adds the visibility conditions (public, owned, collaboration, team,
// organisation membership) to every candidate and to the count.
func BenchmarkSearchRepos(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	seedRepos(b, a, benchSearchRepos)
	u := benchOrdinaryToken(b, a)
	sorted := "/api/v1/repos/search?q=bench&limit=10&sort=updated&order=desc"
	for _, c := range []struct {
		name, path string
		header     http.Header
	}{
		{"keyword", "/api/v1/repos/search?q=bench-0042&limit=10", h},
		{"keyword-user", "/api/v1/repos/search?q=bench-0042&limit=10", u},
		{"sorted", sorted, h},
		{"sorted-user", sorted, u},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, c.path, c.header) })
			b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, c.path, c.header) })
		})
	}
}

// benchOrdinaryToken creates an ordinary user, who owns nothing, and
// returns a header with a repository-reading token of theirs.
func benchOrdinaryToken(b *testing.B, a benchApp) http.Header {
	b.Helper()
	ctx := context.Background()
	no := false
	u, err := a.app.Users.Admin().Create(ctx, users.CreateInput{Name: "someone", Email: "someone@example.com",
		Password: a.password, MustChangePassword: &no, SkipPasswordPolicy: true})
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := a.app.Users.Tokens().Create(ctx, u.ID, "bench-user", []string{"read:repository", "read:user"})
	if err != nil {
		b.Fatal(err)
	}
	return http.Header{"Authorization": {"token " + secret}}
}

// BenchmarkCreateRepoAutoInit is POST /api/v1/user/repos with auto_init, a
// licence and a .gitignore, one at a time: a bare Git repository with its
// initial commit on disk and the rows committed (SQLite synchronous=FULL).
func BenchmarkCreateRepoAutoInit(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		body := fmt.Sprintf(`{"name":"init-%05d","auto_init":true,"license":"MIT","gitignores":"Go"}`, i)
		req := httptest.NewRequest(http.MethodPost, "/api/v1/user/repos", strings.NewReader(body))
		req.Header["Authorization"] = h["Authorization"]
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		a.app.HTTP.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("POST /user/repos: %d %s", rec.Code, rec.Body)
		}
		i++
	}
}

// serveGet answers GET path with header through h.
func serveGet(h http.Handler, path string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
