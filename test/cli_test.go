package test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	httpadapter "github.com/depothq/depot/adapters/http"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TestCLI drives the real depot binary: it is built once, into the parent
// test's temporary directory, and every subtest runs it as a child process.
func TestCLI(t *testing.T) {
	bin := cliBuildDepot(t)

	t.Run("Version", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		r := cliRun(t, bin, nil, "version")
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "depot "+httpadapter.Version)) // prints its own version
	})

	t.Run("UnknownCommand", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		r := cliRun(t, bin, nil, "frobnicate")
		is.True(r.code != 0)
		is.True(strings.Contains(r.stderr, `unknown command "frobnicate"`))
	})

	t.Run("MigrateSQLiteTwice", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		dir := t.TempDir()
		for range 2 {
			r := cliRun(t, bin, nil, "migrate", "--data-dir", dir)
			is.Equal(r.code, 0) // migrate is idempotent
			is.True(strings.Contains(r.stdout, "database is up to date"))
		}
		_, err := os.Stat(filepath.Join(dir, "depot.db"))
		is.NoErr(err) // the SQLite file lives in the data directory
	})

	t.Run("MigratePostgresTwice", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		dsn := testserver.CreatePostgresDB(t)
		for range 2 {
			r := cliRun(t, bin, nil, "migrate", "--db", dsn, "--data-dir", t.TempDir())
			is.Equal(r.code, 0) // migrate is idempotent on Postgres
			is.True(strings.Contains(r.stdout, "database is up to date"))
		}
	})

	t.Run("ServeAndAdmin", func(t *testing.T) {
		t.Parallel()
		testCLIServeAndAdmin(t, bin)
	})

	t.Run("AdminBadges", func(t *testing.T) {
		t.Parallel()
		testCLIAdminBadges(t, bin)
	})

	t.Run("ConfigPrecedence", func(t *testing.T) {
		t.Parallel()
		testCLIConfigPrecedence(t, bin)
	})

	t.Run("ServeHandsBackExecutablePages", func(t *testing.T) {
		t.Parallel()
		testCLIServeHandsBackExecutablePages(t, bin)
	})

	t.Run("UnknownConfigKey", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		dir := t.TempDir()
		file := filepath.Join(dir, "depot.toml")
		cliWriteFile(t, file, "listen = \"127.0.0.1:0\"\nlisten_adress = \"127.0.0.1:1\"\n\n[site]\nbogus_switch = true\n")
		r := cliRun(t, bin, nil, "serve", "--config", file, "--data-dir", filepath.Join(dir, "data"))
		is.True(r.code != 0)
		is.True(strings.Contains(r.stderr, "listen_adress"))     // names the misspelt key
		is.True(strings.Contains(r.stderr, "site.bogus_switch")) // and the one in [site]
	})
}

// testCLIServeAndAdmin starts a server, manages accounts with the admin CLI while
// it runs, and restarts it on the same data directory.
func testCLIServeAndAdmin(t *testing.T, bin string) {
	is := is.New(t)
	dir := t.TempDir()

	srv := cliStart(t, bin, nil, "serve", "--data-dir", dir, "--listen", cliFreeAddr(t))
	srv.waitReady(t)
	log := srv.stderrText(t)
	m := regexp.MustCompile(`administrator account created: username admin, password (\S+)`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no administrator password in the log:\n%s", log)
	}
	adminPW := m[1]
	is.Equal(strings.Count(log, adminPW), 1) // the password is shown exactly once

	st, body := cliGet(t, srv.url+"/api/v1/user", "Authorization", testserver.Basic("admin", adminPW))
	is.Equal(st, http.StatusOK)
	is.Equal(cliDecodeUser(t, body).Login, "admin")

	admin := func(args ...string) cliResult {
		return cliRun(t, bin, nil, append([]string{"admin", "user"}, append(args, "--data-dir", dir)...)...)
	}
	basic := func(path, user, pw string, header ...string) (int, []byte) {
		return cliGet(t, srv.url+"/api/v1"+path, append([]string{"Authorization", testserver.Basic(user, pw)}, header...)...)
	}

	// create, seen at once by the running server
	r := admin("create", "--username", "bob", "--password", "x", "--email", "bob@example.com")
	is.Equal(r.code, 0)
	st, _ = cliGet(t, srv.url+"/api/v1/users/bob")
	is.Equal(st, http.StatusOK)
	st, body = basic("/user", "bob", "x") // any non-empty password is accepted by the CLI
	is.Equal(st, http.StatusOK)
	bob := cliDecodeUser(t, body)
	is.Equal(bob.Login, "bob")
	is.True(!bob.IsAdmin)
	st, _ = basic("/admin/users", "bob", "x")
	is.Equal(st, http.StatusForbidden) // bob is no administrator

	// --admin
	r = admin("create", "--username", "carol", "--password", "carolpw", "--email", "carol@example.com", "--admin")
	is.Equal(r.code, 0)
	st, body = basic("/user", "carol", "carolpw")
	is.Equal(st, http.StatusOK)
	is.True(cliDecodeUser(t, body).IsAdmin)
	st, _ = basic("/admin/users", "carol", "carolpw")
	is.Equal(st, http.StatusOK)

	// --must-change-password
	r = admin("create", "--username", "dave", "--password", "davepw", "--email", "dave@example.com", "--must-change-password")
	is.Equal(r.code, 0)
	st, body = basic("/user", "dave", "davepw")
	is.Equal(st, http.StatusForbidden)
	is.True(strings.HasPrefix(cliMessage(body), "You must change your password")) // Gitea's wording

	// --must-change-password=false
	r = admin("create", "--username", "erin", "--password", "erinpw", "--email", "erin@example.com", "--must-change-password=false")
	is.Equal(r.code, 0)
	st, _ = basic("/user", "erin", "erinpw")
	is.Equal(st, http.StatusOK)

	// errors
	r = admin("create", "--username", "frank", "--password", "x")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "--email")) // says which flag is missing
	st, _ = cliGet(t, srv.url+"/api/v1/users/frank")
	is.Equal(st, http.StatusNotFound)
	r = admin("create", "--username", "bob", "--password", "y", "--email", "bob2@example.com")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "already exists"))

	// list
	r = admin("list")
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "bob@example.com"))
	is.True(strings.Contains(r.stdout, "carol"))

	// change-password: the running server follows at once
	st, _ = basic("/user", "bob", "x") // warms the verifier cache with the old password
	is.Equal(st, http.StatusOK)
	r = admin("change-password", "--username", "bob", "--password", "newpass")
	is.Equal(r.code, 0)
	st, _ = basic("/user", "bob", "newpass")
	is.Equal(st, http.StatusOK)
	st, _ = basic("/user", "bob", "x")
	is.Equal(st, http.StatusUnauthorized) // the old password is refused at once

	// totp enable
	r = admin("totp", "enable", "bob")
	is.Equal(r.code, 0)
	uri := strings.TrimSpace(r.stdout)
	is.True(strings.HasPrefix(uri, "otpauth://totp/"))
	key, err := otp.NewKeyFromURL(uri)
	is.NoErr(err)
	st, body = basic("/user", "bob", "newpass")
	is.Equal(st, http.StatusUnauthorized)
	is.Equal(cliMessage(body), "otp is required")
	st, _ = basic("/user", "bob", "newpass", "X-Service-OTP", "000000x")
	is.Equal(st, http.StatusUnauthorized)
	code, err := totp.GenerateCode(key.Secret(), time.Now())
	is.NoErr(err)
	st, body = basic("/user", "bob", "newpass", "X-Service-OTP", code)
	is.Equal(st, http.StatusOK)
	is.Equal(cliDecodeUser(t, body).Login, "bob")

	// totp disable
	r = admin("totp", "disable", "bob")
	is.Equal(r.code, 0)
	st, _ = basic("/user", "bob", "newpass")
	is.Equal(st, http.StatusOK)
	r = admin("totp", "enable", "nobody")
	is.True(r.code != 0)

	// graceful shutdown
	is.Equal(srv.stop(t), 0)

	// a second start on the same data directory makes no new administrator
	srv2 := cliStart(t, bin, nil, "serve", "--data-dir", dir, "--listen", cliFreeAddr(t))
	srv2.waitReady(t)
	log2 := srv2.stderrText(t)
	is.True(!strings.Contains(log2, "administrator account created"))
	is.True(!strings.Contains(log2, "password"))
	st, _ = cliGet(t, srv2.url+"/api/v1/user", "Authorization", testserver.Basic("admin", adminPW))
	is.Equal(st, http.StatusOK)
	st, _ = cliGet(t, srv2.url+"/api/v1/user", "Authorization", testserver.Basic("bob", "newpass"))
	is.Equal(st, http.StatusOK)
	is.Equal(srv2.stop(t), 0)
}

// testCLIConfigPrecedence checks flag over environment over file by which port
// the server answers on.
func testCLIConfigPrecedence(t *testing.T, bin string) {
	cases := []struct {
		name string
		env  bool
		flag bool
		want int // 0 file, 1 env, 2 flag
	}{
		{"FileOnly", false, false, 0},
		{"EnvOverFile", true, false, 1},
		{"FlagOverEnvAndFile", true, true, 2},
		{"FlagOverFile", false, true, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			dir := t.TempDir()
			addrs := cliFreeAddrs(t, 3)
			file := filepath.Join(dir, "depot.toml")
			cliWriteFile(t, file, fmt.Sprintf("listen = %q\ndata_dir = %q\nlog_level = \"warn\"\n", addrs[0], filepath.Join(dir, "data")))
			var env []string
			if tc.env {
				env = append(env, "DEPOT_LISTEN="+addrs[1])
			}
			args := []string{"serve", "--config", file}
			if tc.flag {
				args = append(args, "--listen", addrs[2])
			}
			srv := cliStart(t, bin, env, args...)
			got := srv.waitAny(t, addrs)
			is.Equal(got, tc.want) // the source with the highest precedence wins
			for i, a := range addrs {
				if i != got {
					is.True(!cliAnswers(a)) // nothing listens on the losing addresses
				}
			}
			is.Equal(srv.stop(t), 0)
		})
	}
}

// cliBuildDepot compiles ./cmd/depot once for the whole TestCLI run.
func cliBuildDepot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above %s: %v", wd, err)
	}
	bin := filepath.Join(t.TempDir(), "depot")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/depot")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/depot: %v\n%s", err, out)
	}
	return bin
}

// cliChildEnv is this process's environment without any DEPOT_ setting, plus extra.
func cliChildEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEPOT_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

type cliResult struct {
	stdout, stderr string
	code           int
}

// cliRun runs a command that is expected to finish by itself.
func cliRun(t *testing.T, bin string, env []string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = cliChildEnv(env)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) || ctx.Err() != nil {
			t.Fatalf("depot %s: %v (stderr: %s)", strings.Join(args, " "), err, stderr.String())
		}
		code = exit.ExitCode()
	}
	return cliResult{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// cliProc is a long-running depot child.
type cliProc struct {
	cmd        *exec.Cmd
	stderrPath string
	url        string // set by waitReady/waitAny
	listen     string // the --listen value, when given
	done       chan struct{}
	waitErr    error
}

// cliStart starts depot with stdout and stderr in files (written by the
// child directly, so what it wrote before answering is there when it answers)
// and kills it at the end of the test if it is still running.
func cliStart(t *testing.T, bin string, env []string, args ...string) *cliProc {
	t.Helper()
	dir := t.TempDir()
	stderrPath := filepath.Join(dir, "stderr.log")
	errFile, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	outFile, err := os.Create(filepath.Join(dir, "stdout.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = cliChildEnv(env)
	cmd.Stdout, cmd.Stderr = outFile, errFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = errFile.Close()
	_ = outFile.Close()
	p := &cliProc{cmd: cmd, stderrPath: stderrPath, done: make(chan struct{})}
	for i, a := range args {
		if a == "--listen" && i+1 < len(args) {
			p.listen = args[i+1]
		}
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

func (p *cliProc) stderrText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(p.stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitReady polls the --listen address until /api/v1/version answers.
func (p *cliProc) waitReady(t *testing.T) {
	t.Helper()
	if p.listen == "" {
		t.Fatal("waitReady needs --listen")
	}
	p.waitAny(t, []string{p.listen})
}

// waitAny polls every address until one answers /api/v1/version, and returns
// its index. It fails the test when the process exits or 15 s pass.
func (p *cliProc) waitAny(t *testing.T, addrs []string) int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		for i, a := range addrs {
			if cliAnswers(a) {
				p.url = "http://" + a
				return i
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("depot did not answer on %v within 15s; stderr:\n%s", addrs, p.stderrText(t))
		}
		select {
		case <-p.done:
			t.Fatalf("depot exited before answering (%v); stderr:\n%s", p.waitErr, p.stderrText(t))
		case <-tick.C:
		}
	}
}

// stop sends SIGTERM and returns the exit code; the process must be gone
// within five seconds.
func (p *cliProc) stop(t *testing.T) int {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("depot still running 5s after SIGTERM; stderr:\n%s", p.stderrText(t))
	}
	if p.waitErr != nil {
		var exit *exec.ExitError
		if !errors.As(p.waitErr, &exit) {
			t.Fatalf("wait: %v", p.waitErr)
		}
		t.Logf("stderr:\n%s", p.stderrText(t))
		return exit.ExitCode()
	}
	return 0
}

// cliAnswers reports whether a depot answers /api/v1/version at addr.
func cliAnswers(addr string) bool {
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get("http://" + addr + "/api/v1/version")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == http.StatusOK
}

// cliFreeAddr returns a loopback address nobody listened on a moment ago.
func cliFreeAddr(t *testing.T) string { return cliFreeAddrs(t, 1)[0] }

// cliFreeAddrs returns n distinct free loopback addresses: all listeners are
// held until the last port is chosen.
func cliFreeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, "127.0.0.1:"+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	}
	for _, ln := range lns {
		_ = ln.Close()
	}
	return out
}

// cliGet sends a GET with alternating header names and values.
func cliGet(t *testing.T, url string, header ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, body
}

type cliUser struct {
	Login   string `json:"login"`
	IsAdmin bool   `json:"is_admin"`
}

func cliDecodeUser(t *testing.T, body []byte) cliUser {
	t.Helper()
	var u cliUser
	if err := json.Unmarshal(body, &u); err != nil {
		t.Fatalf("decode user %s: %v", body, err)
	}
	return u
}

func cliMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &m)
	return m.Message
}

func cliWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
