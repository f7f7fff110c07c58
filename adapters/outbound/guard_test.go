package outbound_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/outbound"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// outboundGuard builds a guard with allowedHosts and closes it after the test.
func outboundGuard(t *testing.T, allowedHosts string, dirs outbound.RepoDirs) *outbound.Guard {
	t.Helper()
	s := site.Defaults()
	s.AllowedHosts = allowedHosts
	g, err := outbound.New(s, dirs)
	if err != nil {
		t.Fatalf("outbound.New(%q): %v", allowedHosts, err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// outboundServer is an HTTP server on 127.0.0.1 that counts its requests.
func outboundServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func outboundOK(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }

func TestOutboundNewRejectsInvalidList(t *testing.T) {
	is := is.New(t)
	s := site.Defaults()
	s.AllowedHosts = "loopback, 10.0.0.0/40"
	_, err := outbound.New(s, nil)
	is.True(errors.Is(err, netpolicy.ErrInvalidList))
	is.True(strings.Contains(err.Error(), "10.0.0.0/40"))
}

func TestOutboundClientRefusesLoopbackByDefault(t *testing.T) {
	is := is.New(t)
	srv, hits := outboundServer(t, outboundOK)
	g := outboundGuard(t, "", nil)
	_, err := g.Client().Get(srv.URL)
	is.True(errors.Is(err, netpolicy.ErrRefused))
	is.True(strings.Contains(err.Error(), "127.0.0.1 is a loopback address, which allowed_hosts does not allow"))
	is.Equal(hits.Load(), int64(0)) // nothing reached the server

	// Listing only other things keeps loopback out too.
	g = outboundGuard(t, "external, private, 10.0.0.0/8", nil)
	_, err = g.Client().Get(srv.URL)
	is.True(errors.Is(err, netpolicy.ErrRefused))
	is.Equal(hits.Load(), int64(0))
}

func TestOutboundClientAllowsLoopbackWhenListed(t *testing.T) {
	for _, list := range []string{"loopback", "external,loopback", "127.0.0.0/8", "*"} {
		t.Run(list, func(t *testing.T) {
			is := is.New(t)
			srv, hits := outboundServer(t, outboundOK)
			g := outboundGuard(t, list, nil)
			resp, err := g.Client().Get(srv.URL)
			is.NoErr(err)
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.Equal(string(body), "hello")
			is.Equal(hits.Load(), int64(1))
		})
	}
}

func TestOutboundClientDoesNotFollowRedirects(t *testing.T) {
	is := is.New(t)
	var followed atomic.Bool
	srv, _ := outboundServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/elsewhere" {
			followed.Store(true)
		}
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	g := outboundGuard(t, "loopback", nil)
	resp, err := g.Client().Post(srv.URL+"/hook", "application/json", strings.NewReader("{}"))
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusFound) // the 3xx is the answer
	is.Equal(resp.Header.Get("Location"), "/elsewhere")
	is.True(!followed.Load())
}

func TestOutboundClientChecksResolvedAddressAtDial(t *testing.T) {
	is := is.New(t)
	srv, hits := outboundServer(t, outboundOK)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]

	// A name is judged by what it resolves to when dialled.
	g := outboundGuard(t, "", nil)
	_, err := g.Client().Get("http://localhost:" + port + "/")
	is.True(errors.Is(err, netpolicy.ErrRefused))
	is.True(strings.Contains(err.Error(), "localhost (127.0.0.1) is a loopback address"))
	is.Equal(hits.Load(), int64(0))

	// A glob naming the host allows it whatever it resolves to, and only it.
	g = outboundGuard(t, "localhost", nil)
	resp, err := g.Client().Get("http://localhost:" + port + "/")
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusOK)
	_, err = g.Client().Get(srv.URL)
	is.True(errors.Is(err, netpolicy.ErrRefused))
}

func TestOutboundClientIgnoresProxyEnvironment(t *testing.T) {
	is := is.New(t)
	// A proxy from the environment would make the guard judge the proxy,
	// not the destination; the client must not use one.
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	srv, _ := outboundServer(t, outboundOK)
	g := outboundGuard(t, "loopback", nil)
	resp, err := g.Client().Get(srv.URL)
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusOK)
}

func TestOutboundClientRefusesEveryAddressOfAName(t *testing.T) {
	is := is.New(t)
	// Link-local (the metadata service) and the unspecified address, which
	// Linux routes to loopback, are refused under the default list.
	g := outboundGuard(t, "", nil)
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://0.0.0.0:1/", "http://[::ffff:127.0.0.1]:1/"} {
		_, err := g.Client().Get(u)
		is.True(errors.Is(err, netpolicy.ErrRefused))
	}
}

func TestOutboundCheckURL(t *testing.T) {
	ctx := context.Background()
	rebind := func(ctx context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "localhost":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		case "public.test":
			return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
		case "mixed.test":
			return []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("93.184.216.34")}, nil
		case "internal.test":
			return []netip.Addr{netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("fd00::1")}, nil
		}
		return nil, errors.New("no such host")
	}
	cases := []struct {
		name, list, url string
		schemes         []string
		want            string // "" for no error, else a fragment of the 422 message
	}{
		{"public", "", "https://public.test/owner/repo.git", nil, ""},
		{"public with credentials", "", "https://user:secret@public.test/repo.git", nil, ""},
		{"public IP", "", "http://93.184.216.34:8080/x", nil, ""},
		{"one public address is enough", "", "https://mixed.test/", nil, ""},
		{"loopback IP", "", "http://127.0.0.1:3000/x", nil, "127.0.0.1 is a loopback address"},
		{"IPv6 loopback", "", "http://[::1]:3000/x", nil, "::1 is a loopback address"},
		{"mapped loopback", "", "http://[::ffff:127.0.0.1]/", nil, "127.0.0.1 is a loopback address"},
		{"localhost", "", "http://localhost/", nil, "localhost (127.0.0.1) is a loopback address"},
		{"metadata", "", "http://169.254.169.254/latest/", nil, "169.254.169.254 is a link-local address"},
		{"CGNAT", "", "http://100.64.1.1/", nil, "100.64.1.1 is a private address"},
		{"unspecified", "", "http://0.0.0.0/", nil, "0.0.0.0 is a non-routable address"},
		{"private name", "", "https://internal.test/", nil, "internal.test (10.0.0.1) is a private address"},
		{"private name allowed", "private", "https://internal.test/", nil, ""},
		{"glob allows the name", "*.test", "https://internal.test/", nil, ""},
		{"loopback allowed", "loopback", "http://127.0.0.1:3000/x", nil, ""},
		{"unresolvable", "", "https://nowhere.test/", nil, `host "nowhere.test" cannot be resolved`},
		{"ftp", "", "ftp://public.test/", nil, `scheme "ftp" is not supported (want http or https)`},
		{"file", "", "file:///etc/passwd", nil, `scheme "file" is not supported`},
		{"ssh not asked for", "", "ssh://git@public.test/repo.git", nil, `scheme "ssh" is not supported`},
		{"ssh asked for", "", "ssh://git@public.test/repo.git", []string{"https", "ssh"}, ""},
		{"scheme outside the supported four", "", "ftp://public.test/", []string{"ftp", "https"}, "(want https)"},
		{"https only", "", "http://public.test/", []string{"https"}, `scheme "http" is not supported (want https)`},
		{"relative", "", "/owner/repo.git", nil, "is not an absolute URL"},
		{"scp-like", "", "git@public.test:owner/repo.git", nil, "is not"},
		{"no host", "", "http:///path", nil, "has no host"},
		{"opaque", "", "http:public.test", nil, "has no host"},
		{"bad port", "", "http://user:hunter2@public.test:port/", nil, "is not a valid URL"},
		{"empty", "", "", nil, "is not an absolute URL"},
		{"refused with credentials", "", "http://user:hunter2@127.0.0.1/", nil, "loopback"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			g := outboundGuard(t, tc.list, nil)
			outbound.SetLookup(g, rebind)
			err := g.CheckURL(ctx, "clone_addr", tc.url, tc.schemes...)
			if tc.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Fields, []string{"clone_addr"})
			is.True(strings.HasPrefix(err.Error(), "clone_addr: "))
			is.True(strings.Contains(err.Error(), tc.want))
			is.True(!strings.Contains(err.Error(), "hunter2")) // credentials are never echoed
			is.True(!strings.Contains(err.Error(), "secret"))
		})
	}
}

func TestOutboundCheckURLRealResolver(t *testing.T) {
	is := is.New(t)
	g := outboundGuard(t, "", nil)
	err := g.CheckURL(context.Background(), "url", "http://localhost:3000/")
	is.True(errors.Is(err, errs.ErrInvalid))
	is.True(strings.Contains(err.Error(), "loopback"))
	err = g.CheckURL(context.Background(), "url", "http://no-such-host.invalid/")
	is.True(errors.Is(err, errs.ErrInvalid))
	is.True(strings.Contains(err.Error(), "cannot be resolved"))
}

var _ ports.Outbound = (*outbound.Guard)(nil)
