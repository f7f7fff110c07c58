package outbound

import (
	"context"
	"net/netip"
)

// SetLookup replaces CheckURL's resolver, to play a DNS rebinding: the name
// check sees a public address, the dialer the real one.
func SetLookup(g *Guard, f func(ctx context.Context, host string) ([]netip.Addr, error)) {
	g.lookup = f
}

// OpenProxySession opens a session on the guard's git proxy as a git run
// would: the proxy URL with its credential, the session's first refusal,
// and the release.
func OpenProxySession(ctx context.Context, g *Guard) (proxyURL string, refusal func() error, release func(), err error) {
	p, err := g.startProxy()
	if err != nil {
		return "", nil, nil, err
	}
	s, u, rel := p.open(ctx)
	return u, s.err, rel, nil
}
