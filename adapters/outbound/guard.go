// Package outbound is the one door for the service's requests to other
// hosts: the allow list checked at dial time, an HTTP client that follows no
// redirects, and Git fetches and pushes routed through the same check.
//
// Every connection is judged on the address actually being connected to (a
// net.Dialer Control hook), not on an earlier DNS answer, so a name that
// resolves to a public address when checked and to 127.0.0.1 when dialled
// (DNS rebinding) is still refused. The git CLI cannot use that dialer, so
// Git remotes run with http.proxy pointing at a small proxy on loopback that
// the Guard starts on first use and that dials through the same hook.
package outbound

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

var (
	_ ports.Outbound   = (*Guard)(nil)
	_ ports.GitRemotes = (*Guard)(nil)
)

// Timeouts of outbound connections. Callers bound a whole exchange with
// their context; these only keep a silent peer from holding a worker.
const (
	dialTimeout           = 10 * time.Second
	tlsHandshakeTimeout   = 10 * time.Second
	responseHeaderTimeout = 30 * time.Second
	// clientTimeout is the ceiling of one request through Client, body
	// included.
	clientTimeout = time.Minute
	// lookupTimeout bounds CheckURL's DNS resolution.
	lookupTimeout = 10 * time.Second
)

// supportedSchemes are the only schemes CheckURL ever accepts, whatever
// the caller asks for.
var supportedSchemes = []string{"http", "https", "ssh", "git"}

// RepoDirs says where a repository lives on disk (the libgit2 storage), for
// the git commands that fetch into and push from it.
type RepoDirs interface {
	Dir(p ports.RepoPath) (string, error)
}

// Guard implements the outbound ports.
type Guard struct {
	policy netpolicy.Policy
	dirs   RepoDirs
	client *http.Client
	// lookup resolves host names for CheckURL; tests replace it to play a
	// DNS rebinding.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)

	mu     sync.Mutex
	proxy  *proxy
	closed bool
	git    string
}

// New builds the guard from the site's allowed_hosts setting (an invalid
// list is an error) and the storage that locates repositories for git.
func New(s site.Settings, dirs RepoDirs) (*Guard, error) {
	p, err := netpolicy.Parse(s.AllowedHosts)
	if err != nil {
		return nil, fmt.Errorf("outbound: allowed_hosts: %w", err)
	}
	g := &Guard{policy: p, dirs: dirs}
	g.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	g.client = &http.Client{
		Transport: g.transport(),
		// The 3xx answer is the result: following it would send the
		// request (and a webhook's secret) somewhere nobody checked.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       clientTimeout,
	}
	return g, nil
}

// transport is an HTTP transport whose every connection is guarded. It
// ignores HTTP_PROXY and friends: a proxy would make the dial-time check
// judge the proxy's address instead of the destination's.
func (g *Guard) transport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           g.dialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   tlsHandshakeTimeout,
		ResponseHeaderTimeout: responseHeaderTimeout,
		ExpectContinueTimeout: time.Second,
	}
}

// Close stops the Git proxy if it was started. Requests in flight fail.
func (g *Guard) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.client.CloseIdleConnections()
	if g.proxy == nil {
		return nil
	}
	err := g.proxy.close()
	g.proxy = nil
	return err
}

// dialContext dials addr (host:port) over TCP, refusing in the dialer's
// Control hook every resolved address the allow list refuses. The host name
// is kept for the hook so that a glob naming the host still allows it.
func (g *Guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil, fmt.Errorf("outbound: network %q is not allowed", network)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("outbound: %w", err)
	}
	d := net.Dialer{
		Timeout:   dialTimeout,
		KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("outbound: dialling %q: %w", address, err)
			}
			if !g.policy.Allows(host, ap.Addr()) {
				return netpolicy.Refusal(host, ap.Addr())
			}
			return nil
		},
	}
	return d.DialContext(ctx, network, addr)
}

// Client returns the guarded HTTP client: every connection checked at dial
// time, redirects returned rather than followed, no proxy from the
// environment, a one-minute ceiling per request.
func (g *Guard) Client() *http.Client { return g.client }

// CheckURL refuses, with errs.Invalid naming field, a URL whose scheme is not
// among schemes (http and https when none are given; ssh and git only when
// asked for, and never anything else), that has no host, or whose host the
// allow list refuses by name or by every address it resolves to. Messages
// never quote the URL, so credentials in it are not echoed back.
func (g *Guard) CheckURL(ctx context.Context, field, rawURL string, schemes ...string) error {
	u, err := parseURL(field, rawURL, schemes)
	if err != nil {
		return err
	}
	return g.checkHost(ctx, field, u.Hostname())
}

// parseURL checks the form of rawURL: an absolute URL with a supported
// scheme from schemes and a host.
func parseURL(field, rawURL string, schemes []string) (*url.URL, error) {
	if len(schemes) == 0 {
		schemes = []string{"http", "https"}
	}
	allowed := make([]string, 0, len(schemes))
	for _, s := range schemes {
		s = strings.ToLower(s)
		if slices.Contains(supportedSchemes, s) && !slices.Contains(allowed, s) {
			allowed = append(allowed, s)
		}
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		// url.Parse's message quotes the URL: never pass it on.
		return nil, errs.Invalid("is not a valid URL", field)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		return nil, errs.Invalid("is not an absolute URL (want "+orList(allowed)+")", field)
	}
	if !slices.Contains(allowed, scheme) {
		return nil, errs.Invalid(fmt.Sprintf("scheme %q is not supported (want %s)", scheme, orList(allowed)), field)
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, errs.Invalid("has no host", field)
	}
	return u, nil
}

// orList joins words with "or" for messages.
func orList(words []string) string {
	switch len(words) {
	case 0:
		return "nothing"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// checkHost is CheckURL's decision on the host: allowed by name, or an
// address literal the list allows, or a name with at least one allowed
// address (the dialer refuses the others when it gets there).
func (g *Guard) checkHost(ctx context.Context, field, host string) error {
	if g.policy.AllowsName(host) {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !g.policy.Allows("", ip) {
			return errs.Invalid(netpolicy.Refusal("", ip).Error(), field)
		}
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	addrs, err := g.lookup(lctx, host)
	if err != nil || len(addrs) == 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.Invalid(fmt.Sprintf("host %q cannot be resolved", host), field)
	}
	for _, a := range addrs {
		if g.policy.Allows(host, a) {
			return nil
		}
	}
	return errs.Invalid(netpolicy.Refusal(host, addrs[0]).Error(), field)
}
