// Package sshd is the built-in SSH server: it serves git-upload-pack and
// git-receive-pack to accounts' and deploy keys, with the same permission
// core as Git over HTTP, and nothing else (no shells, no forwarding, no
// environment but a checked GIT_PROTOCOL).
package sshd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/adapters/connlimit"
	"github.com/depothq/depot/adapters/githttp"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Options configure the SSH server.
type Options struct {
	// Listen is the address (host:port); empty turns the server off.
	Listen string
	// DataDir is the service's data directory; the host key is kept in
	// its ssh folder.
	DataDir string
	// MaxConnsPerAddr is how many connections one client address may hold
	// at once; the next is closed at once. 0: no bound but maxConnections.
	MaxConnsPerAddr int
	// MaxConnsExempt are the addresses the bound does not count.
	MaxConnsExempt []netip.Prefix
}

// Limits. Git sessions are short and chatty; a connection that goes quiet
// for idleTimeout is dropped, as is one that has not finished its
// handshake within handshakeTimeout or asked for a command within
// execWait of opening a session.
const (
	maxConnections = 512
	// maxStartupsPerHost bounds the connections one address may hold in
	// their handshake (before signing in), as OpenSSH's MaxStartups does
	// site-wide: unauthenticated clients cannot fill every slot.
	maxStartupsPerHost = 10
	maxSessionsPerConn = 8
	maxAuthTries       = 6
	handshakeTimeout   = 30 * time.Second
	idleTimeout        = 10 * time.Minute
	execWait           = 30 * time.Second
	lookupTimeout      = 10 * time.Second
	// shutdownGrace is how long running commands get to finish when the
	// service stops; pushes are waited for first, since their hooks call
	// back into the HTTP server, which stops after.
	shutdownGrace = 10 * time.Second
	// keyUseInterval is how often a key's last-use time is written at most.
	keyUseInterval = time.Minute
)

// sshUser is the only user name accepted, the one clone URLs name.
const sshUser = "git"

// Permissions extensions carrying what the sign-in learnt to the sessions.
const (
	extFingerprint = "depot-fingerprint"
	extKind        = "depot-key-kind"
	extKeyID       = "depot-key-id"
	kindAccount    = "account"
	kindDeploy     = "deploy"
)

// Server is the SSH server.
type Server struct {
	transport *transport.Service
	runner    *githttp.Runner
	dirs      githttp.RepoDirs
	clock     ports.Clock
	opts      Options
	log       *slog.Logger
	metrics   ports.GitSessionMetrics

	mu    sync.Mutex
	conns map[*tracked]struct{}
	// startups counts, per remote address, connections in their handshake.
	startups map[string]int
	keyUse   map[int64]time.Time
	// draining is set when the service stops: no new sessions or commands.
	draining atomic.Bool
}

// tracked is one connection, from its accept on: one still in its
// handshake is idle too, and a shutdown must not wait for it.
type tracked struct {
	nc net.Conn
	// conn is the SSH connection once the handshake is done; only the
	// connection's own goroutines read it.
	conn *ssh.ServerConn
	// running counts the commands in progress.
	running atomic.Int32
}

// New builds the SSH server; nothing is read or listened on until Serve.
func New(t *transport.Service, runner *githttp.Runner, dirs githttp.RepoDirs, clock ports.Clock, opts Options,
	log *slog.Logger, metrics ports.GitSessionMetrics) (*Server, error) {
	if metrics == nil {
		metrics = noMetrics{}
	}
	return &Server{transport: t, runner: runner, dirs: dirs, clock: clock, opts: opts, log: log, metrics: metrics,
		conns: make(map[*tracked]struct{}), keyUse: make(map[int64]time.Time)}, nil
}

// Enabled reports whether the site asked for the SSH server.
func (s *Server) Enabled() bool { return s.opts.Listen != "" }

// Listen opens the configured address.
func (s *Server) Listen() (net.Listener, error) {
	if !s.Enabled() {
		return nil, errors.New("sshd: no listen address configured")
	}
	ln, err := net.Listen("tcp", s.opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("sshd: %w", err)
	}
	return ln, nil
}

// HostKeyDir is where the host key is kept.
func (s *Server) HostKeyDir() string { return filepath.Join(s.opts.DataDir, "ssh") }

// Serve answers SSH connections on ln until ctx ends, then lets running
// commands finish (up to a grace period) and returns. It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	signer, err := LoadHostKey(s.HostKeyDir())
	if err != nil {
		_ = ln.Close()
		return err
	}
	s.log.Info("ssh server ready", "addr", ln.Addr().String(),
		"host_key", ssh.FingerprintSHA256(signer.PublicKey()))
	cfg := &ssh.ServerConfig{
		PublicKeyCallback: s.publicKey,
		MaxAuthTries:      maxAuthTries,
		ServerVersion:     "SSH-2.0-Depot",
		AuthLogCallback: func(m ssh.ConnMetadata, method string, err error) {
			if err != nil && method != "none" {
				s.log.Debug("ssh authentication failed", "remote", m.RemoteAddr().String(), "user", m.User(),
					"method", method, "err", err)
			}
		},
	}
	cfg.AddHostKey(signer)
	// Commands run under hard, which outlives ctx by the grace period.
	hard, stopHard := context.WithCancel(context.WithoutCancel(ctx))
	defer stopHard()
	var wg sync.WaitGroup
	accepted := make(chan error, 1)
	go func() { accepted <- s.accept(hard, ln, cfg, &wg) }()
	var serveErr error
	select {
	case <-ctx.Done():
		_ = ln.Close()
		<-accepted
	case serveErr = <-accepted:
		_ = ln.Close()
	}
	s.drain(&wg, stopHard)
	return serveErr
}

// accept takes connections until ln is closed.
func (s *Server) accept(ctx context.Context, ln net.Listener, cfg *ssh.ServerConfig, wg *sync.WaitGroup) error {
	slots := make(chan struct{}, maxConnections)
	perAddr := connlimit.New(s.opts.MaxConnsPerAddr, s.opts.MaxConnsExempt)
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			// Out of descriptors and the like: wait and try again.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("ssh accept failed", "err", err, "retry_in", backoff)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		host := connlimit.Host(nc.RemoteAddr())
		if !perAddr.Acquire(host) {
			s.log.Warn("ssh connection refused: too many connections from one address", "remote", host)
			_ = nc.Close()
			continue
		}
		select {
		case slots <- struct{}{}:
		default:
			perAddr.Release(host)
			s.log.Warn("ssh connection refused: too many connections", "remote", nc.RemoteAddr().String())
			_ = nc.Close()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer perAddr.Release(host)
			s.serveConn(ctx, nc, cfg)
		}()
	}
}

// drain stops the server: connections without a running command close at
// once, the others get the grace period, then everything is cut.
func (s *Server) drain(wg *sync.WaitGroup, stopHard context.CancelFunc) {
	s.draining.Store(true)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	deadline := time.NewTimer(shutdownGrace)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		s.closeConns(false)
		select {
		case <-done:
			return
		case <-deadline.C:
			s.closeConns(true)
			stopHard()
			<-done
			return
		case <-tick.C:
		}
	}
}

// closeConns closes the idle connections, or all of them.
func (s *Server) closeConns(all bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t := range s.conns {
		if all || t.running.Load() == 0 {
			_ = t.nc.Close()
		}
	}
}

func (s *Server) track(t *tracked) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining.Load() {
		return false
	}
	s.conns[t] = struct{}{}
	return true
}

func (s *Server) untrack(t *tracked) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, t)
}

// serveConn runs one connection: the handshake, then its session channels.
// Global requests (tcpip-forward and the like) and every other channel
// type (direct-tcpip, x11, …) are refused.
func (s *Server) serveConn(ctx context.Context, nc net.Conn, cfg *ssh.ServerConfig) {
	t := &tracked{nc: nc}
	if !s.track(t) {
		_ = nc.Close()
		return
	}
	defer s.untrack(t)
	host := remoteHost(nc)
	if !s.startHandshake(host) {
		s.log.Warn("ssh connection refused: too many unauthenticated connections from one address", "remote", host)
		_ = nc.Close()
		return
	}
	ic := &idleConn{Conn: nc}
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	conn, chans, reqs, err := ssh.NewServerConn(ic, cfg)
	s.endHandshake(host)
	if err != nil {
		_ = nc.Close()
		s.log.Debug("ssh handshake failed", "remote", nc.RemoteAddr().String(), "err", err)
		return
	}
	ic.arm()
	t.conn = conn
	defer conn.Close()
	defer s.metrics.SSHConnectionOpened()()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_ = conn.Wait()
		cancel()
	}()
	go ssh.DiscardRequests(reqs)
	s.recordKeyUse(ctx, conn.Permissions)

	var sessions sync.WaitGroup
	defer sessions.Wait()
	slots := make(chan struct{}, maxSessionsPerConn)
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.Prohibited, "only session channels are served")
			continue
		}
		if s.draining.Load() {
			_ = nch.Reject(ssh.ResourceShortage, "the server is shutting down")
			continue
		}
		select {
		case slots <- struct{}{}:
		default:
			_ = nch.Reject(ssh.ResourceShortage, "too many sessions on one connection")
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			<-slots
			continue
		}
		sessions.Add(1)
		go func() {
			defer sessions.Done()
			defer func() { <-slots }()
			s.session(ctx, t, ch, creqs)
		}()
	}
}

// publicKey admits the account keys and deploy keys Depot knows, for the
// user "git" only. Whose key it is travels in the permissions; what it
// may do is decided per command.
func (s *Server) publicKey(m ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
	if m.User() != sshUser {
		return nil, fmt.Errorf("unknown user %q: connect as %s", m.User(), sshUser)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	fp := ssh.FingerprintSHA256(key)
	k, err := s.transport.IdentifyKey(ctx, fp)
	if err != nil {
		if !errors.Is(err, errs.ErrUnauthenticated) {
			s.log.Error("ssh key lookup failed", "fingerprint", fp, "err", err)
		}
		return nil, errors.New("unknown public key")
	}
	ext := map[string]string{extFingerprint: fp, extKind: kindDeploy}
	if k.Kind == transport.KeyAccount {
		ext[extKind] = kindAccount
		ext[extKeyID] = strconv.FormatInt(k.KeyID, 10)
	}
	return &ssh.Permissions{Extensions: ext}, nil
}

// recordKeyUse writes an account key's last-use time, at most once a
// minute per key.
func (s *Server) recordKeyUse(ctx context.Context, p *ssh.Permissions) {
	if p == nil || p.Extensions[extKind] != kindAccount {
		return
	}
	id, err := strconv.ParseInt(p.Extensions[extKeyID], 10, 64)
	if err != nil {
		return
	}
	now := s.clock.Now()
	s.mu.Lock()
	if last, ok := s.keyUse[id]; ok && now.Sub(last) < keyUseInterval {
		s.mu.Unlock()
		return
	}
	if len(s.keyUse) > 4096 {
		for k, at := range s.keyUse {
			if now.Sub(at) >= keyUseInterval {
				delete(s.keyUse, k)
			}
		}
	}
	s.keyUse[id] = now
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	err = s.transport.KeyUsed(ctx, &transport.SSHKey{Kind: transport.KeyAccount, KeyID: id})
	if err != nil && !errors.Is(err, errs.ErrNotFound) {
		s.log.Warn("recording ssh key use", "key_id", id, "err", err)
	}
}

// idleConn drops a connection that has neither read nor written anything
// for idleTimeout, once armed after the handshake.
type idleConn struct {
	net.Conn
	armed    atomic.Bool
	extended atomic.Int64
}

func (c *idleConn) arm() {
	c.armed.Store(true)
	c.extend()
}

// extend moves the deadline, at most once a second.
func (c *idleConn) extend() {
	if !c.armed.Load() {
		return
	}
	now := time.Now()
	if last := c.extended.Load(); now.UnixNano()-last < int64(time.Second) {
		return
	}
	c.extended.Store(now.UnixNano())
	_ = c.Conn.SetDeadline(now.Add(idleTimeout))
}

func (c *idleConn) Read(p []byte) (int, error) {
	c.extend()
	return c.Conn.Read(p)
}

func (c *idleConn) Write(p []byte) (int, error) {
	c.extend()
	return c.Conn.Write(p)
}

// remoteHost is the address a connection comes from, without its port.
func remoteHost(nc net.Conn) string {
	addr := nc.RemoteAddr().String()
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// startHandshake counts a connection of host in its handshake, unless host
// holds maxStartupsPerHost already.
func (s *Server) startHandshake(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.startups == nil {
		s.startups = map[string]int{}
	}
	if s.startups[host] >= maxStartupsPerHost {
		return false
	}
	s.startups[host]++
	return true
}

// endHandshake uncounts a connection of host whose handshake ended.
func (s *Server) endHandshake(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.startups[host]--; s.startups[host] <= 0 {
		delete(s.startups, host)
	}
}

// noMetrics records nothing (a server built without a metrics page).
type noMetrics struct{}

func (noMetrics) SSHConnectionOpened() func() { return func() {} }
func (noMetrics) GitSessionStarted(string) func(uint32, int64, int64) {
	return func(uint32, int64, int64) {}
}
