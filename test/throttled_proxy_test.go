package test

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// throttledProxy forwards loopback TCP connections to a server, passing
// what clients send on at a bounded rate, or up to a point and then nothing:
// a client on a slow link, or one whose upload stalls midway. Answers come
// back unthrottled.
type throttledProxy struct {
	ln     net.Listener
	target string
	// rate is the client-to-server rate in bytes per second; 0: unbounded.
	rate int
	// stallAfter is how many bytes of each connection pass before it goes
	// silent (the client's bytes are no longer read); 0: never.
	stallAfter int64
	// forwarded counts the client bytes passed on, over all connections.
	forwarded atomic.Int64

	mu    sync.Mutex
	conns []net.Conn
}

// startThrottledProxy listens on a loopback port until the test ends.
func startThrottledProxy(t *testing.T, target string, rate int, stallAfter int64) *throttledProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &throttledProxy{ln: ln, target: target, rate: rate, stallAfter: stallAfter}
	go p.accept()
	t.Cleanup(func() {
		_ = ln.Close()
		p.closeAll()
	})
	return p
}

// addr is the proxy's host:port.
func (p *throttledProxy) addr() string { return p.ln.Addr().String() }

func (p *throttledProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		down := make(chan struct{})
		go func() {
			defer close(down)
			_, _ = io.Copy(c, up)
			_ = c.Close()
		}()
		go p.upload(c, up, down)
	}
}

// upload passes the client's bytes on, paced, until the stall point.
// down is closed when the server's side of the connection has ended.
func (p *throttledProxy) upload(c, up net.Conn, down <-chan struct{}) {
	defer up.Close()
	chunk := 32 << 10
	if p.rate > 0 {
		chunk = max(p.rate/20, 1) // twenty sends a second
	}
	buf := make([]byte, chunk)
	var sent int64
	for {
		want := len(buf)
		if p.stallAfter > 0 {
			if left := p.stallAfter - sent; left <= 0 {
				// Silent from here on: hold both ends open until closed.
				<-down
				return
			} else if left < int64(want) {
				want = int(left)
			}
		}
		n, err := c.Read(buf[:want])
		if n > 0 {
			if _, werr := up.Write(buf[:n]); werr != nil {
				return
			}
			sent += int64(n)
			p.forwarded.Add(int64(n))
			if p.rate > 0 {
				time.Sleep(time.Duration(n) * time.Second / time.Duration(p.rate))
			}
		}
		if err != nil {
			if cw, ok := up.(*net.TCPConn); ok && errors.Is(err, io.EOF) {
				// The client has sent everything: pass the half-close on
				// and wait for the answer to end.
				_ = cw.CloseWrite()
				<-down
			}
			return
		}
	}
}

// closeAll cuts every connection, as a client that dies does.
func (p *throttledProxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}
