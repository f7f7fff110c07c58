package http_test

// The benchmarks live in an external test package because they assemble the
// whole service through wire, which imports this package.

import (
	"context"
	"github.com/depothq/depot/app/auth"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/wire"
)

// benchApp is the assembled service on SQLite in a temporary directory, with
// its bootstrap administrator's password and a read:user token of theirs.
type benchApp struct {
	app      *wire.App
	password string
	token    string
}

func newBenchApp(b *testing.B) benchApp {
	b.Helper()
	ctx := context.Background()
	settings := site.Defaults()
	settings.BaseURL = "http://127.0.0.1:3000"
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
	_, secret, err := app.Users.CreateToken(ctx, admin.ID, "bench", []string{"read:user"})
	if err != nil {
		b.Fatal(err)
	}
	return benchApp{app: app, password: pw, token: secret}
}

// benchHandler calls the handler directly with a recorder, from every P: the
// service's own cost without the network.
func benchHandler(b *testing.B, h http.Handler, path string, header http.Header) {
	b.Helper()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			for k, v := range header {
				req.Header[k] = v
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("GET %s: %d %s", path, rec.Code, rec.Body)
				return
			}
		}
	})
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
