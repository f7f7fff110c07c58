package httpkit

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/site"
)

// ReverseProxy reads the headers in which a trusted reverse proxy names the
// user it signed in. Only a request whose connection comes from one of the
// trusted addresses is read; from any other address the headers are
// ignored, so a client cannot name itself anyone.
type ReverseProxy struct {
	userHeader, emailHeader, fullNameHeader string
	trusted                                 []netip.Prefix
}

// NewReverseProxy returns nil when reverse-proxy authentication is off.
// Entries of the trusted list that are neither an address nor a prefix are
// skipped (the configuration refuses them first).
func NewReverseProxy(cfg site.ReverseProxyAuth) *ReverseProxy {
	if !cfg.Enabled || cfg.UserHeader == "" {
		return nil
	}
	p := &ReverseProxy{userHeader: cfg.UserHeader, emailHeader: cfg.EmailHeader, fullNameHeader: cfg.FullNameHeader}
	for _, e := range cfg.TrustedProxies {
		if pfx, err := netip.ParsePrefix(strings.TrimSpace(e)); err == nil {
			p.trusted = append(p.trusted, pfx.Masked())
		} else if a, err := netip.ParseAddr(strings.TrimSpace(e)); err == nil {
			p.trusted = append(p.trusted, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return p
}

// Read fills c's proxy fields from r's headers when r comes from a trusted
// proxy. A nil ReverseProxy reads nothing.
func (p *ReverseProxy) Read(r *http.Request, c *auth.Credentials) {
	if p == nil || !p.trusts(r.RemoteAddr) {
		return
	}
	c.ProxyUser = strings.TrimSpace(r.Header.Get(p.userHeader))
	if c.ProxyUser == "" {
		return
	}
	if p.emailHeader != "" {
		c.ProxyEmail = r.Header.Get(p.emailHeader)
	}
	if p.fullNameHeader != "" {
		c.ProxyFullName = r.Header.Get(p.fullNameHeader)
	}
}

// trusts reports whether the connection's peer address is a trusted proxy's.
func (p *ReverseProxy) trusts(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, pfx := range p.trusted {
		if pfx.Contains(a) {
			return true
		}
	}
	return false
}
