package outbound_test

import (
	"context"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/outbound"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/ports"
)

// The remote's account; the password is distinctive so a leak is visible.
const (
	outboundUser     = "mirror-bot"
	outboundPassword = "s3cr3t-Pa55word"
)

// outboundDirs maps repositories to directories under a temporary root, as
// the libgit2 storage does under the data directory.
type outboundDirs struct{ root string }

func (d outboundDirs) Dir(p ports.RepoPath) (string, error) {
	return filepath.Join(d.root, p.Owner, p.Name+".git"), nil
}

// outboundGit runs git for a test with no user or system configuration.
func outboundGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// outboundRefs lists a repository's refs as "name id" lines.
func outboundRefs(t *testing.T, gitDir string) string {
	t.Helper()
	return outboundGit(t, gitDir, "for-each-ref", "--format=%(refname) %(objectname)")
}

// outboundRemote is a smart-HTTP Git server on 127.0.0.1 (git http-backend
// behind CGI) that wants Basic credentials for everything. It serves the
// bare repositories under its root; src.git has two branches, a tag and a
// pull-request ref, empty.git has nothing.
type outboundRemote struct {
	url  string
	root string
	hits *atomic.Int64
	srv  *httptest.Server
}

func outboundStartRemote(t *testing.T) outboundRemote {
	t.Helper()
	return outboundStartRemoteWith(t, httptest.NewServer)
}

// outboundStartRemoteWith starts the remote with newServer
// (httptest.NewServer or httptest.NewTLSServer).
func outboundStartRemoteWith(t *testing.T, newServer func(http.Handler) *httptest.Server) outboundRemote {
	t.Helper()
	root := t.TempDir()
	work := t.TempDir()
	outboundGit(t, work, "init", "-q")
	is.New(t).NoErr(os.WriteFile(filepath.Join(work, "README"), []byte("one\n"), 0o644))
	outboundGit(t, work, "add", "README")
	outboundGit(t, work, "commit", "-q", "-m", "one")
	outboundGit(t, work, "tag", "v1")
	outboundGit(t, work, "branch", "feature")
	is.New(t).NoErr(os.WriteFile(filepath.Join(work, "README"), []byte("two\n"), 0o644))
	outboundGit(t, work, "commit", "-q", "-am", "two")
	outboundGit(t, root, "clone", "-q", "--bare", work, "src.git")
	outboundGit(t, filepath.Join(root, "src.git"), "update-ref", "refs/pull/1/head", "feature")
	outboundGit(t, root, "init", "-q", "--bare", "empty.git")
	for _, r := range []string{"src.git", "empty.git"} {
		outboundGit(t, filepath.Join(root, r), "config", "http.receivepack", "true")
	}

	gitPath, err := exec.LookPath("git")
	is.New(t).NoErr(err)
	backend := &cgi.Handler{Path: gitPath, Args: []string{"http-backend"}, Dir: root,
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"}}
	var hits atomic.Int64
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if strings.HasPrefix(r.URL.Path, "/moved/") {
			http.Redirect(w, r, strings.TrimPrefix(r.URL.Path, "/moved")+"?"+r.URL.RawQuery, http.StatusMovedPermanently)
			return
		}
		if u, p, ok := r.BasicAuth(); !ok || u != outboundUser || p != outboundPassword {
			w.Header().Set("WWW-Authenticate", `Basic realm="remote"`)
			http.Error(w, "credentials, please", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return outboundRemote{url: srv.URL, root: root, hits: &hits, srv: srv}
}

// outboundLocal makes an empty bare repository where dirs puts p.
func outboundLocal(t *testing.T, dirs outboundDirs, p ports.RepoPath) string {
	t.Helper()
	dir, _ := dirs.Dir(p)
	is.New(t).NoErr(os.MkdirAll(filepath.Dir(dir), 0o755))
	outboundGit(t, filepath.Dir(dir), "init", "-q", "--bare", filepath.Base(dir))
	return dir
}

// outboundNewLocal makes the empty bare repository alice/name under a new
// root: the directories, the repository's path and its directory.
func outboundNewLocal(t *testing.T, name string) (outboundDirs, ports.RepoPath, string) {
	t.Helper()
	dirs := outboundDirs{root: t.TempDir()}
	p := ports.RepoPath{Owner: "alice", Name: name}
	return dirs, p, outboundLocal(t, dirs, p)
}

// outboundRefusedByDefault checks the guard's refusal of a loopback remote
// when no allowed_hosts are set: a 422 naming the reason, without the
// credentials, before anything reached the remote or changed untouched.
func outboundRefusedByDefault(t *testing.T, err error, says, untouched string) {
	t.Helper()
	is := is.New(t)
	is.True(errors.Is(err, errs.ErrInvalid))
	is.True(strings.Contains(err.Error(), says))
	outboundNoLeak(t, err)
	is.Equal(outboundRefs(t, untouched), "")
}

// outboundNoLeak fails when err's text carries the credentials.
func outboundNoLeak(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("want an error")
	}
	for _, s := range []string{outboundPassword, outboundUser} {
		if strings.Contains(err.Error(), s) {
			t.Fatalf("error leaks %q: %v", s, err)
		}
	}
}

func TestOutboundFetch(t *testing.T) {
	ctx := context.Background()
	remote := outboundStartRemote(t)
	dirs, p, local := outboundNewLocal(t, "mirror")
	src := filepath.Join(remote.root, "src.git")
	withCreds := ports.Remote{URL: remote.url + "/src.git", Username: outboundUser, Password: outboundPassword}

	t.Run("refused by default", func(t *testing.T) {
		is := is.New(t)
		g := outboundGuard(t, "", dirs)
		_, err := g.Fetch(ctx, p, withCreds)
		outboundRefusedByDefault(t, err, "127.0.0.1 is a loopback address", local)
		is.Equal(remote.hits.Load(), int64(0))
	})

	g := outboundGuard(t, "loopback", dirs)

	t.Run("mirrors every ref with credentials", func(t *testing.T) {
		is := is.New(t)
		is.NoErr(outboundFetchErr(g.Fetch(ctx, p, withCreds)))
		is.Equal(outboundRefs(t, local), outboundRefs(t, src))
		is.True(strings.Contains(outboundRefs(t, local), "refs/pull/1/head"))
		is.True(strings.Contains(outboundRefs(t, local), "refs/tags/v1"))
	})

	t.Run("forces and prunes", func(t *testing.T) {
		is := is.New(t)
		outboundGit(t, src, "update-ref", "-d", "refs/heads/feature")
		outboundGit(t, src, "update-ref", "refs/heads/main", "v1") // a rewind
		is.NoErr(outboundFetchErr(g.Fetch(ctx, p, withCreds)))
		is.Equal(outboundRefs(t, local), outboundRefs(t, src))
		is.True(!strings.Contains(outboundRefs(t, local), "refs/heads/feature"))
	})

	t.Run("credentials in the URL", func(t *testing.T) {
		is := is.New(t)
		outboundGit(t, src, "update-ref", "refs/heads/again", "v1")
		is.NoErr(outboundFetchErr(g.Fetch(ctx, p, ports.Remote{URL: strings.Replace(remote.url, "http://",
			"http://"+outboundUser+":"+outboundPassword+"@", 1) + "/src.git"})))
		is.Equal(outboundRefs(t, local), outboundRefs(t, src))
	})

	t.Run("wrong password", func(t *testing.T) {
		is := is.New(t)
		bad := withCreds
		bad.Password = outboundPassword + "-wrong"
		_, err := g.Fetch(ctx, p, bad)
		outboundNoLeak(t, err)
		is.True(!strings.Contains(err.Error(), bad.Password))
		is.True(strings.Contains(err.Error(), "Authentication failed"))
		is.True(!errors.Is(err, netpolicy.ErrRefused))
	})

	t.Run("wrong password in the URL", func(t *testing.T) {
		_, err := g.Fetch(ctx, p, ports.Remote{URL: strings.Replace(remote.url, "http://",
			"http://"+outboundUser+":"+outboundPassword+"X@", 1) + "/src.git"})
		outboundNoLeak(t, err)
	})

	t.Run("no credentials", func(t *testing.T) {
		is := is.New(t)
		_, err := g.Fetch(ctx, p, ports.Remote{URL: remote.url + "/src.git"})
		is.True(err != nil) // no prompt: git fails at once
	})

	t.Run("redirects are not followed", func(t *testing.T) {
		is := is.New(t)
		before := outboundRefs(t, local)
		outboundGit(t, src, "update-ref", "refs/heads/after-redirect", "v1")
		moved := withCreds
		moved.URL = remote.url + "/moved/src.git"
		_, err := g.Fetch(ctx, p, moved)
		is.True(err != nil)
		outboundNoLeak(t, err)
		is.Equal(outboundRefs(t, local), before)
	})
}

func TestOutboundFetchRefusedAtDialTime(t *testing.T) {
	// The name check sees a public address (a DNS answer that changes
	// between check and dial); the proxy dials the real one, loopback, and
	// refuses. Plain HTTP goes through the proxy's forwarding, https
	// through CONNECT.
	ctx := context.Background()
	remote := outboundStartRemote(t)
	port := remote.url[strings.LastIndex(remote.url, ":")+1:]
	dirs, p, local := outboundNewLocal(t, "mirror")
	g := outboundGuard(t, "", dirs)
	outbound.SetLookup(g, func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	})
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			is := is.New(t)
			_, err := g.Fetch(ctx, p, ports.Remote{URL: scheme + "://localhost:" + port + "/src.git",
				Username: outboundUser, Password: outboundPassword})
			is.True(errors.Is(err, netpolicy.ErrRefused))
			is.True(strings.Contains(err.Error(), "localhost (127.0.0.1) is a loopback address"))
			outboundNoLeak(t, err)
			is.Equal(outboundRefs(t, local), "")
			is.Equal(remote.hits.Load(), int64(0))
		})
	}
	t.Run("push", func(t *testing.T) {
		is := is.New(t)
		err := g.PushMirror(ctx, p, ports.Remote{URL: "http://localhost:" + port + "/empty.git"})
		is.True(errors.Is(err, netpolicy.ErrRefused))
	})
}

func TestOutboundPushMirror(t *testing.T) {
	ctx := context.Background()
	remote := outboundStartRemote(t)
	dirs, p, local := outboundNewLocal(t, "origin")
	// The local repository gets its content from the remote's src.git,
	// fetched the plain way, plus a ref push mirrors leave alone.
	outboundGit(t, local, "fetch", "-q", filepath.Join(remote.root, "src.git"), "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
	outboundGit(t, local, "update-ref", "refs/notes/commits", "v1")
	target := filepath.Join(remote.root, "empty.git")
	heads := func(dir string) string {
		return outboundGit(t, dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags")
	}
	withCreds := ports.Remote{URL: remote.url + "/empty.git", Username: outboundUser, Password: outboundPassword}

	t.Run("refused by default", func(t *testing.T) {
		g := outboundGuard(t, "", dirs)
		outboundRefusedByDefault(t, g.PushMirror(ctx, p, withCreds), "loopback", target)
		is.New(t).Equal(remote.hits.Load(), int64(0))
	})

	g := outboundGuard(t, "loopback", dirs)

	t.Run("pushes branches and tags", func(t *testing.T) {
		is := is.New(t)
		is.NoErr(g.PushMirror(ctx, p, withCreds))
		is.Equal(heads(target), heads(local))
		is.True(strings.Contains(heads(target), "refs/heads/feature"))
		is.True(!strings.Contains(outboundRefs(t, target), "refs/notes/"))
	})

	t.Run("forces and prunes", func(t *testing.T) {
		is := is.New(t)
		outboundGit(t, local, "update-ref", "-d", "refs/heads/feature")
		outboundGit(t, local, "update-ref", "refs/heads/main", "v1")
		is.NoErr(g.PushMirror(ctx, p, withCreds))
		is.Equal(heads(target), heads(local))
		is.True(!strings.Contains(heads(target), "refs/heads/feature"))
	})

	t.Run("wrong password", func(t *testing.T) {
		is := is.New(t)
		bad := withCreds
		bad.Password = "not-" + outboundPassword
		err := g.PushMirror(ctx, p, bad)
		outboundNoLeak(t, err)
		is.True(!strings.Contains(err.Error(), bad.Password))
	})
}

func TestOutboundGitRemoteValidation(t *testing.T) {
	ctx := context.Background()
	dirs := outboundDirs{root: t.TempDir()}
	p := ports.RepoPath{Owner: "alice", Name: "r"}
	g := outboundGuard(t, "*", dirs)
	cases := []struct {
		name  string
		r     ports.Remote
		field string
		want  string
	}{
		{"ssh", ports.Remote{URL: "ssh://git@example.com/r.git"}, "url", `scheme "ssh" is not supported`},
		{"git", ports.Remote{URL: "git://example.com/r.git"}, "url", `scheme "git" is not supported`},
		{"file", ports.Remote{URL: "file:///etc"}, "url", `scheme "file" is not supported`},
		{"ext", ports.Remote{URL: "ext::sh -c touch% /tmp/pwned"}, "url", "is not"},
		{"option-like", ports.Remote{URL: "--upload-pack=touch /tmp/pwned"}, "url", "is not an absolute URL"},
		{"scp-like", ports.Remote{URL: "git@example.com:r.git"}, "url", "is not"},
		{"no host", ports.Remote{URL: "https:///r.git"}, "url", "has no host"},
		{"newline in password", ports.Remote{URL: "https://example.com/r.git", Username: "u", Password: "a\nhost=evil"}, "password", "line breaks"},
		{"newline in username", ports.Remote{URL: "https://example.com/r.git", Username: "u\nx", Password: "p"}, "username", "line breaks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			for _, run := range []func(context.Context, ports.RepoPath, ports.Remote) error{outboundFetchOnly(g), g.PushMirror} {
				err := run(ctx, p, tc.r)
				is.True(errors.Is(err, errs.ErrInvalid))
				var e *errs.Error
				is.True(errors.As(err, &e))
				is.Equal(e.Fields, []string{tc.field})
				is.True(strings.Contains(err.Error(), tc.want))
			}
		})
	}
}

func TestOutboundFetchOverHTTPS(t *testing.T) {
	// https goes through the proxy's CONNECT tunnel, TLS end to end: git
	// verifies the remote's certificate (trusted here through
	// GIT_SSL_CAINFO, which the guard passes on), the proxy sees bytes.
	is := is.New(t)
	ctx := context.Background()
	remote := outboundStartRemoteWith(t, httptest.NewTLSServer)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	is.NoErr(os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: remote.srv.Certificate().Raw}), 0o644))
	t.Setenv("GIT_SSL_CAINFO", ca)
	dirs, p, local := outboundNewLocal(t, "mirror")
	g := outboundGuard(t, "loopback", dirs)
	r := ports.Remote{URL: remote.url + "/src.git", Username: outboundUser, Password: outboundPassword}
	is.True(strings.HasPrefix(r.URL, "https://"))
	is.NoErr(outboundFetchErr(g.Fetch(ctx, p, r)))
	is.Equal(outboundRefs(t, local), outboundRefs(t, filepath.Join(remote.root, "src.git")))

	r.Password = "wrong-" + outboundPassword
	_, err := g.Fetch(ctx, p, r)
	outboundNoLeak(t, err)
	is.True(strings.Contains(err.Error(), "Authentication failed"))
}
