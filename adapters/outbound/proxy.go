package outbound

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"

	"github.com/depothq/depot/domain/netpolicy"
)

// proxy is the HTTP proxy git talks to, listening on 127.0.0.1 only. It
// forwards plain-HTTP requests and tunnels CONNECT, dialling through the
// Guard, so git's connections get the same dial-time check as Client's.
//
// Each git run opens a session with its own random credential, given to git
// through the environment (never argv, which other local users can read),
// so no other process can use the proxy as an open relay into the network,
// and a refusal can be reported as the reason the run failed.
type proxy struct {
	guard *Guard
	ln    net.Listener
	srv   *http.Server
	fwd   *httputil.ReverseProxy

	mu       sync.Mutex
	sessions map[string]*session
}

// session is one git run's right to use the proxy.
type session struct {
	id, secret string
	ctx        context.Context
	cancel     context.CancelFunc

	mu      sync.Mutex
	refusal error
	// failure is the last other upstream failure (connection refused, …),
	// which git only reports as a 502.
	failure error
}

// refused records the first refusal of the run.
func (s *session) refused(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refusal == nil {
		s.refusal = err
	}
}

// failed records an upstream failure that is no refusal.
func (s *session) failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failure = err
}

// err returns the run's first refusal, or nil.
func (s *session) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refusal
}

// upstreamErr returns the last upstream failure, or nil.
func (s *session) upstreamErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

type sessionKey struct{}

// proxyRealm is what a 407 asks credentials for.
const proxyRealm = `Basic realm="depot-outbound"`

// startProxy returns the running proxy, starting it on first use.
func (g *Guard) startProxy() (*proxy, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, errors.New("outbound: the guard is closed")
	}
	if g.proxy != nil {
		return g.proxy, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		// A host without IPv4 loopback still has IPv6's.
		ln, err = net.Listen("tcp", "[::1]:0")
	}
	if err != nil {
		return nil, fmt.Errorf("outbound: starting the git proxy: %w", err)
	}
	p := &proxy{guard: g, ln: ln, sessions: map[string]*session{}}
	tr := g.transport()
	p.fwd = &httputil.ReverseProxy{
		// Out is already a clone of the absolute-form request; hop-by-hop
		// headers (Proxy-Authorization among them) are dropped by
		// ReverseProxy, and no X-Forwarded-* is added.
		Rewrite:       func(*httputil.ProxyRequest) {},
		Transport:     tr,
		FlushInterval: -1,
		ErrorHandler:  p.forwardError,
	}
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	go func() { _ = p.srv.Serve(ln) }()
	g.proxy = p
	return p, nil
}

// close stops the listener and every tunnel.
func (p *proxy) close() error {
	p.mu.Lock()
	for _, s := range p.sessions {
		s.cancel()
	}
	p.mu.Unlock()
	err := p.srv.Close()
	if tr, ok := p.fwd.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
	return err
}

// open starts a session for one git run; the returned URL (with the
// session's credential) goes into git's http.proxy, and release ends the
// session and its tunnels.
func (p *proxy) open(ctx context.Context) (s *session, proxyURL string, release func()) {
	s = &session{id: randomHex(8), secret: randomHex(32)}
	s.ctx, s.cancel = context.WithCancel(ctx)
	p.mu.Lock()
	p.sessions[s.id] = s
	p.mu.Unlock()
	u := url.URL{Scheme: "http", User: url.UserPassword(s.id, s.secret), Host: p.ln.Addr().String()}
	return s, u.String(), func() {
		p.mu.Lock()
		delete(p.sessions, s.id)
		p.mu.Unlock()
		s.cancel()
	}
}

// randomHex returns n random bytes in hex; crypto/rand never fails.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// authenticate returns the session whose credential r carries.
func (p *proxy) authenticate(r *http.Request) *session {
	// Proxy-Authorization has the Authorization syntax; reuse its parser.
	probe := http.Request{Header: http.Header{"Authorization": r.Header.Values("Proxy-Authorization")}}
	id, secret, ok := probe.BasicAuth()
	if !ok {
		return nil
	}
	p.mu.Lock()
	s := p.sessions[id]
	p.mu.Unlock()
	if s == nil || subtle.ConstantTimeCompare([]byte(secret), []byte(s.secret)) != 1 {
		return nil
	}
	return s
}

// ServeHTTP forwards or tunnels an authenticated request.
func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := p.authenticate(r)
	if s == nil {
		w.Header().Set("Proxy-Authenticate", proxyRealm)
		http.Error(w, "proxy credentials required", http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r, s)
		return
	}
	if !r.URL.IsAbs() || r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "want an absolute http:// request or CONNECT", http.StatusBadRequest)
		return
	}
	// Git's smart HTTP answers while it still reads the request (upload-pack
	// negotiates in full duplex). Without full duplex the server stops
	// reading git's body once the answer's header is forwarded, and the
	// exchange is cut off mid-stream.
	_ = http.NewResponseController(w).EnableFullDuplex()
	p.fwd.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, s)))
}

// forwardError answers a failed forward: 403 with the reason for a refusal
// (recorded on the session), 502 otherwise.
func (p *proxy) forwardError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, netpolicy.ErrRefused) {
		if s, ok := r.Context().Value(sessionKey{}).(*session); ok {
			s.refused(refusalOf(err))
		}
		http.Error(w, refusalOf(err).Error(), http.StatusForbidden)
		return
	}
	if s, ok := r.Context().Value(sessionKey{}).(*session); ok {
		s.failed(err)
	}
	http.Error(w, "upstream unreachable", http.StatusBadGateway)
}

// refusalOf digs the allow list's refusal out of a dial error, so the
// message is the refusal's and not the dialler's wrapping.
func refusalOf(err error) error {
	var re *netpolicy.RefusedError
	if errors.As(err, &re) {
		return re
	}
	return err
}

// tunnel answers CONNECT: dial the target through the guard, then copy
// bytes both ways until either side closes or the session ends.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request, s *session) {
	if _, _, err := net.SplitHostPort(r.Host); err != nil {
		http.Error(w, "CONNECT wants host:port", http.StatusBadRequest)
		return
	}
	upstream, err := p.guard.dialContext(s.ctx, "tcp", r.Host)
	if err != nil {
		if errors.Is(err, netpolicy.ErrRefused) {
			s.refused(refusalOf(err))
			http.Error(w, refusalOf(err).Error(), http.StatusForbidden)
			return
		}
		s.failed(err)
		http.Error(w, "upstream unreachable", http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = upstream.Close()
		http.Error(w, "tunnelling unsupported", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		_ = upstream.Close()
		return
	}
	stop := context.AfterFunc(s.ctx, func() {
		_ = client.Close()
		_ = upstream.Close()
	})
	defer stop()
	defer client.Close()
	defer upstream.Close()
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		// Bytes the server read past the CONNECT header belong upstream.
		_, _ = io.Copy(upstream, io.MultiReader(io.LimitReader(buf.Reader, int64(buf.Reader.Buffered())), client))
		closeWrite(upstream)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, upstream)
		closeWrite(client)
		done <- struct{}{}
	}()
	<-done
	<-done
}

// closeWrite half-closes a TCP connection so the peer sees EOF.
func closeWrite(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
	}
}
