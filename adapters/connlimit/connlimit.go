// Package connlimit bounds how many connections one client address may hold
// open at once, so that one client cannot take every descriptor of the
// server: the HTTP listener refuses the connections past the bound with a
// short answer, the SSH server closes them.
package connlimit

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"syscall"
)

// PerAddress counts the open connections of each client address.
type PerAddress struct {
	max    int
	exempt []netip.Prefix
	mu     sync.Mutex
	open   map[string]int
}

// New counts connections per address, allowing limit at once (0: no
// bound), except from the exempt addresses, which are not counted.
func New(limit int, exempt []netip.Prefix) *PerAddress {
	return &PerAddress{max: limit, exempt: exempt, open: map[string]int{}}
}

// ParseExempt reads a list of IP addresses and CIDR prefixes.
func ParseExempt(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, item := range list {
		item = strings.TrimSpace(item)
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("connlimit: %q is not an IP address or CIDR prefix", item)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// isExempt reports whether host is one of the exempt addresses.
func (p *PerAddress) isExempt(host string) bool {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, e := range p.exempt {
		if e.Contains(a) {
			return true
		}
	}
	return false
}

// Acquire counts one more connection from host, unless host holds the
// maximum already.
func (p *PerAddress) Acquire(host string) bool {
	if p.isExempt(host) {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.max > 0 && p.open[host] >= p.max {
		return false
	}
	p.open[host]++
	return true
}

// Release uncounts a connection from host that Acquire admitted.
func (p *PerAddress) Release(host string) {
	if p.isExempt(host) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.open[host]--; p.open[host] <= 0 {
		delete(p.open, host)
	}
}

// Open is how many counted connections are open in all.
func (p *PerAddress) Open() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.open {
		n += c
	}
	return n
}

// Host is the address a connection comes from, without its port: the
// unit the bound counts (an IPv6 client is one address, not its /64).
func Host(addr net.Addr) string {
	s := addr.String()
	if host, _, err := net.SplitHostPort(s); err == nil {
		return host
	}
	return s
}

// maxRefusing bounds the refusals under way at once: past it, a
// connection over the bound is closed without an answer, so a flood of
// them costs no more than that many descriptors for a moment.
const maxRefusing = 64

// Listener hands out the connections the per-address bound admits; it
// passes the others to refuse, which answers and closes them.
type Listener struct {
	net.Listener
	limit    *PerAddress
	refuse   func(net.Conn)
	refusing chan struct{}
}

// Listen wraps ln with the bound. refuse runs in its own goroutine for each
// connection over the bound and must close it; nil closes it at once.
func Listen(ln net.Listener, limit *PerAddress, refuse func(net.Conn)) *Listener {
	if refuse == nil {
		refuse = func(c net.Conn) { _ = c.Close() }
	}
	return &Listener{Listener: ln, limit: limit, refuse: refuse, refusing: make(chan struct{}, maxRefusing)}
}

// Accept returns the next connection the bound admits.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := Host(c.RemoteAddr())
		if l.limit.Acquire(host) {
			return &conn{Conn: c, release: sync.OnceFunc(func() { l.limit.Release(host) })}, nil
		}
		select {
		case l.refusing <- struct{}{}:
			go func() {
				defer func() { <-l.refusing }()
				l.refuse(c)
			}()
		default:
			_ = c.Close()
		}
	}
}

// conn is an admitted connection, uncounted when it closes.
type conn struct {
	net.Conn
	release func()
}

// Close closes the connection and gives its slot back.
func (c *conn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// CloseWrite half-closes the connection when it can, as net/http does
// before closing one whose request it refused.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps the TCP connection's copy path (sendfile) for net/http's
// file answers.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(writerOnly{c.Conn}, r)
}

// SyscallConn reaches the socket, for a handler that hands it to another
// process (Git's answers over HTTP).
func (c *conn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.ErrUnsupported
	}
	return sc.SyscallConn()
}

// writerOnly hides a writer's other methods, so io.Copy does not loop back
// into ReadFrom.
type writerOnly struct{ io.Writer }
