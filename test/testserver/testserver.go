// Package testserver starts a real Depot server for end-to-end tests: the
// assembled application on a random loopback port with a temporary data
// directory, SQLite by default or a fresh Postgres database on request.
package testserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/wire"
	"github.com/uptrace/bun/driver/pgdriver"
)

// Server is a running Depot.
type Server struct {
	// URL is the root, e.g. http://127.0.0.1:41234.
	URL string
	// API is URL + "/api/v1".
	API string
	// AdminPassword is the password of the bootstrap administrator "admin".
	AdminPassword string
	App           *wire.App
	DataDir       string
	// SSHAddr is the built-in SSH server's address (host:port), set with WithSSH.
	SSHAddr string
	// DSN is the Postgres database's (OnPostgres, JoinPostgres), "" on SQLite.
	DSN  string
	t    testing.TB
	stop func()
}

// Option changes the site settings before start.
type Option func(*config)

type config struct {
	site     site.Settings
	postgres bool
	ssh      bool
	dataDir  string
	dsn      string
}

// WithSettings edits the site settings.
func WithSettings(f func(*site.Settings)) Option { return func(c *config) { f(&c.site) } }

// OnPostgres runs the server on a fresh Postgres database, dropped after the test.
func OnPostgres() Option { return func(c *config) { c.postgres = true } }

// JoinPostgres runs the server on an existing Postgres database (another
// server's DSN), so that two servers serve one site; with WithDataDir they
// also share the repositories, as nodes behind a load balancer do.
func JoinPostgres(dsn string) Option { return func(c *config) { c.dsn = dsn } }

// WithSSH also starts the built-in SSH server on a random loopback port
// (Server.SSHAddr); repositories' ssh_url name that port.
func WithSSH() Option { return func(c *config) { c.ssh = true } }

// WithDataDir runs the server on dir rather than a new temporary directory,
// so that a second server sees what a first one left there (a restart).
// Stop the first before starting the second. Only the first one (on an
// empty directory) creates the administrator and has AdminPassword.
func WithDataDir(dir string) Option { return func(c *config) { c.dataDir = dir } }

// Start runs a server until the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	base := "http://" + ln.Addr().String()
	cfg := config{site: site.Defaults()}
	cfg.site.BaseURL = base
	// No housekeeping after pushes unless a test asks for it: a git gc
	// deletes the loose objects it packs, and a test's own git reading the
	// repository then (git fsck) finds them gone. The housekeeping tests
	// turn it on.
	cfg.site.HousekeepingDelay = -1
	for _, o := range opts {
		o(&cfg)
	}
	var sshLn net.Listener
	if cfg.ssh {
		if sshLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatalf("listen ssh: %v", err)
		}
		cfg.site.SSHListen = sshLn.Addr().String()
	}
	dir := cfg.dataDir
	if dir == "" {
		dir = t.TempDir()
	}
	// Warnings and errors are kept and shown when the test fails, so that a
	// failure seen only under load (CI) explains itself.
	logs := &logTail{max: 64 << 10}
	o := wire.Options{Site: cfg.site, DataDir: dir,
		Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if os.Getenv("DEPOT_TEST_VERBOSE") != "" {
		o.Log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	t.Cleanup(func() {
		if t.Failed() && logs.Len() > 0 {
			t.Logf("server warnings and errors (last %d KiB):\n%s", logs.max>>10, logs.String())
		}
	})
	switch {
	case cfg.dsn != "":
		o.DSN = cfg.dsn
	case cfg.postgres:
		o.DSN = createMigratedPostgresDB(t)
	}
	ctx, cancel := context.WithCancel(context.Background())
	app, cleanup, err := wire.Init(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("init: %v", err)
	}
	pw, err := app.Prepare(ctx)
	if err != nil {
		cleanup()
		cancel()
		t.Fatalf("prepare: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- app.ServeWithSSH(ctx, ln, sshLn) }()
	stop := sync.OnceFunc(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("server did not stop")
		}
		cleanup()
	})
	t.Cleanup(stop)
	return &Server{URL: base, API: base + "/api/v1", AdminPassword: pw, App: app, DataDir: dir,
		SSHAddr: cfg.site.SSHListen, DSN: o.DSN, t: t, stop: stop}
}

// Stop shuts the server down as SIGTERM does and waits for it; the test's
// end does it otherwise. Stopping twice is stopping once.
func (s *Server) Stop() { s.stop() }

// PostgresDSN is the server tests use: DEPOT_TEST_POSTGRES_DSN or the local default.
func PostgresDSN() string {
	if dsn := os.Getenv("DEPOT_TEST_POSTGRES_DSN"); dsn != "" {
		return dsn
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// CreatePostgresDB makes a uniquely named, empty database, drops it when
// the test ends, and returns its DSN. It fails the test when Postgres is
// unreachable.
func CreatePostgresDB(t testing.TB) string {
	t.Helper()
	return createPostgresDB(t, "")
}

// createPostgresDB is CreatePostgresDB, copying template when it is not "".
func createPostgresDB(t testing.TB, template string) string {
	t.Helper()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(PostgresDSN())))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		_ = admin.Close()
		t.Fatalf("postgres unreachable at %s (set DEPOT_TEST_POSTGRES_DSN): %v", PostgresDSN(), err)
	}
	name := "depot_e2e_" + hex.EncodeToString(randBytes(6))
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := admin.ExecContext(ctx, create); err != nil {
		_ = admin.Close()
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
		_ = admin.Close()
	})
	return replaceDBName(PostgresDSN(), name)
}

func replaceDBName(dsn, name string) string {
	head, query, _ := strings.Cut(dsn, "?")
	i := strings.LastIndex(head, "/")
	if i < len("postgres://") {
		head += "/"
		i = len(head) - 1
	}
	out := head[:i+1] + name
	if query != "" {
		out += "?" + query
	}
	return out
}

// Client returns a Gitea SDK client with the given options (SetToken, SetBasicAuth, …).
func (s *Server) Client(opts ...gitea.ClientOption) *gitea.Client {
	s.t.Helper()
	c, err := gitea.NewClient(s.URL, opts...)
	if err != nil {
		s.t.Fatalf("sdk client: %v", err)
	}
	return c
}

// AdminClient is an SDK client signed in as the bootstrap administrator with Basic auth.
func (s *Server) AdminClient() *gitea.Client {
	return s.Client(gitea.SetBasicAuth("admin", s.AdminPassword))
}

// CreateUser makes an account through the admin API (must_change_password
// false) and returns a client signed in as it with Basic auth.
func (s *Server) CreateUser(name, password string) (*gitea.User, *gitea.Client) {
	s.t.Helper()
	no := false
	u, _, err := s.AdminClient().AdminCreateUser(gitea.CreateUserOption{
		Username: name, Email: name + "@example.com", Password: password, MustChangePassword: &no,
	})
	if err != nil {
		s.t.Fatalf("create user %s: %v", name, err)
	}
	return u, s.Client(gitea.SetBasicAuth(name, password))
}

// CreateToken makes an access token for a user through the API with Basic auth.
func (s *Server) CreateToken(name, password string, scopes ...string) string {
	s.t.Helper()
	sc := make([]gitea.AccessTokenScope, 0, len(scopes))
	for _, x := range scopes {
		sc = append(sc, gitea.AccessTokenScope(x))
	}
	tok, _, err := s.Client(gitea.SetBasicAuth(name, password)).CreateAccessToken(gitea.CreateAccessTokenOption{
		Name: "t-" + hex.EncodeToString(randBytes(4)), Scopes: sc})
	if err != nil {
		s.t.Fatalf("create token for %s: %v", name, err)
	}
	return tok.Token
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// Response is a raw HTTP answer, body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Message is the "message" field of a JSON error body.
func (r Response) Message() string {
	var m struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(r.Body, &m)
	return m.Message
}

// Decode unmarshals the body into v, failing the test on error.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Do sends a raw request to path under /api/v1 (or an absolute URL). body may
// be nil, a string or []byte (sent as is), or anything else (sent as JSON).
// Redirects are not followed. header is alternating key, value.
func (s *Server) Do(method, path string, body any, header ...string) Response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			s.t.Fatalf("marshal: %v", err)
		}
		rd = bytes.NewReader(data)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = s.API + path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		s.t.Fatalf("request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.EOF) {
		s.t.Fatalf("read: %v", err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// Basic returns an Authorization header value for HTTP Basic.
func Basic(user, password string) string {
	req, _ := http.NewRequest("GET", "http://x", nil)
	req.SetBasicAuth(user, password)
	return req.Header.Get("Authorization")
}

// logTail keeps the last max bytes written to it.
type logTail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write appends p, dropping the oldest bytes past the bound.
func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if over := len(l.buf) - l.max; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	return len(p), nil
}

// Len is how many bytes are kept.
func (l *logTail) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buf)
}

// String returns what is kept.
func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
