package test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// cutOffWithin is the generous bound a client that breaks the body limits
// must be cut off within: far above the short limits these tests set, far
// below "never" (before the limits, such clients were held for good).
const cutOffWithin = 20 * time.Second

// countedSource is a loopback address the per-address bound counts:
// 127.0.0.1, where the push hooks call back from, is exempt by default.
const countedSource = "127.0.0.2"

// dialServer opens a TCP connection to srv from the loopback address source.
func dialServer(t *testing.T, srv *testserver.Server, source string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatalf("dial from %s: %v", source, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// requestHead is an HTTP/1.1 request head; header is alternating key, value.
func requestHead(method, path string, header ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: depot.test\r\n", method, path)
	for i := 0; i+1 < len(header); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", header[i], header[i+1])
	}
	b.WriteString("\r\n")
	return b.String()
}

// awaitHangUp reads c until the server closes it and returns what it sent;
// it fails the test when the connection is still open after cutOffWithin.
func awaitHangUp(t *testing.T, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(cutOffWithin))
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err == nil {
			continue
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("the server still held the connection after %v; it sent %q", cutOffWithin, got)
		}
		return string(got) // EOF or reset: the server hung up
	}
}

// TestBodyDeadlineCutsOffMissingBody: a client that sends a request's head
// and never its body is cut off, on the API and on Git's smart HTTP
// streams, and its descriptors are given back.
func TestBodyDeadlineCutsOffMissingBody(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.BodyIdleTimeout = 500 * time.Millisecond
	}))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true, Readme: "Default"})
	auth := testserver.Basic("alice", userPassword)
	heads := map[string]string{
		"api": requestHead("POST", "/api/v1/user/repos", "Authorization", auth,
			"Content-Type", "application/json", "Content-Length", "100"),
		"upload-pack": requestHead("POST", "/alice/pub.git/git-upload-pack",
			"Content-Type", "application/x-git-upload-pack-request", "Content-Length", "100"),
		"receive-pack": requestHead("POST", "/alice/pub.git/git-receive-pack", "Authorization", auth,
			"Content-Type", "application/x-git-receive-pack-request", "Transfer-Encoding", "chunked"),
	}
	for name, head := range heads {
		t.Run(name, func(t *testing.T) {
			c := dialServer(t, srv, countedSource)
			_, err := c.Write([]byte(head))
			is.NoErr(err)
			awaitHangUp(t, c) // cut off, no body ever sent
			_ = c.Close()
		})
	}
	testkit.Eventually(t, "the cut-off connections to be closed by the server", func() bool {
		return serverConnsFrom(t, srv, countedSource) == 0
	})
}

// TestBodyDeadlineCutsOffTrickle: a body sent one byte at a time, each
// within the idle bound but far below the minimum rate, is cut off.
func TestBodyDeadlineCutsOffTrickle(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.BodyIdleTimeout = 2 * time.Second
		s.Connections.BodyMinRate = 200
		s.Connections.BodyRateWindow = time.Second
	}))
	newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	c := dialServer(t, srv, countedSource)
	const size = 10000 // 100 s at the trickle's 100 bytes per second
	_, err := c.Write([]byte(requestHead("POST", "/api/v1/user/repos",
		"Authorization", testserver.Basic("alice", userPassword), "Content-Type", "application/json",
		"Content-Length", fmt.Sprint(size))))
	is.NoErr(err)
	sent := make(chan int, 1)
	go func() {
		n := 0
		for ; n < size; n++ {
			if _, err := c.Write([]byte(" ")); err != nil {
				break
			}
			time.Sleep(10 * time.Millisecond) // the trickle's pace: 100 B/s, half the minimum
		}
		sent <- n
	}()
	awaitHangUp(t, c)
	_ = c.Close()
	is.True(<-sent < size) // cut off before the body was all sent
}

// TestBodyDeadlineLetsSlowHonestClients: a body that arrives slowly but
// above the minimum rate is read whole, through the API and as a push.
func TestBodyDeadlineLetsSlowHonestClients(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.BodyIdleTimeout = 2 * time.Second
		s.Connections.BodyMinRate = 16 << 10
		s.Connections.BodyRateWindow = time.Second
	}))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "slow", AutoInit: true, Readme: "Default"})

	// A JSON body of 96 KiB at 48 KiB/s: two seconds, three times the minimum.
	c := dialServer(t, srv, countedSource)
	body := strings.Repeat(" ", 96<<10) + `{"name":"paced"}`
	_, err := c.Write([]byte(requestHead("POST", "/api/v1/user/repos",
		"Authorization", testserver.Basic("alice", userPassword), "Content-Type", "application/json",
		"Content-Length", fmt.Sprint(len(body)), "Connection", "close")))
	is.NoErr(err)
	for rest := body; rest != ""; {
		n := min(len(rest), 2400)
		_, err := c.Write([]byte(rest[:n]))
		is.NoErr(err)
		rest = rest[n:]
		time.Sleep(50 * time.Millisecond)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusCreated) // the whole body was read

	// A push of 256 KiB of random data through a link of 64 KiB/s.
	proxy := startThrottledProxy(t, strings.TrimPrefix(srv.URL, "http://"), 64<<10, 0)
	url := "http://alice:" + userPassword + "@" + proxy.addr() + "/alice/slow.git"
	work := httpGitClone(t, url)
	id := commitRandomFile(t, work, "big.bin", 256<<10)
	httpGitOK(t, work, "push", "-q", "origin", "HEAD:main")
	is.Equal(httpGitRef(t, srv, "alice", "slow", "refs/heads/main"), id)
	is.True(proxy.forwarded.Load() > 256<<10) // it did go through the slow link
}

// TestConnectionsPerAddressCap: one address may hold the configured number
// of connections; the next is answered 429 and closed while the others go
// on working, a slot comes back when a connection closes, and the
// descriptors are released.
func TestConnectionsPerAddressCap(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.MaxConnsPerAddr = 3
	}))
	get := func(c net.Conn, r *bufio.Reader) int {
		t.Helper()
		_, err := c.Write([]byte(requestHead("GET", "/api/v1/version")))
		is.NoErr(err)
		resp, err := http.ReadResponse(r, nil)
		is.NoErr(err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	conns := make([]net.Conn, 3)
	readers := make([]*bufio.Reader, 3)
	for i := range conns {
		conns[i] = dialServer(t, srv, countedSource)
		readers[i] = bufio.NewReader(conns[i])
		is.Equal(get(conns[i], readers[i]), http.StatusOK)
	}

	over := dialServer(t, srv, countedSource)
	overReader := bufio.NewReader(over)
	is.Equal(get(over, overReader), http.StatusTooManyRequests)
	awaitHangUp(t, over)

	// The loopback address the push hooks use is not counted.
	srv.Do("GET", "/version", nil)
	for i := range conns {
		is.Equal(get(conns[i], readers[i]), http.StatusOK) // the admitted ones still work
	}

	// Closing one gives its slot back once the server has seen it go.
	_ = conns[0].Close()
	testkit.Eventually(t, "a fourth connection to be admitted after one closed", func() bool {
		c := dialServer(t, srv, countedSource)
		defer c.Close()
		return get(c, bufio.NewReader(c)) == http.StatusOK
	})
	for _, c := range append(conns, over) {
		_ = c.Close()
	}
	testkit.Eventually(t, "the connections to be closed by the server", func() bool {
		return serverConnsFrom(t, srv, countedSource) == 0
	})
}

// serverConnsFrom counts the server's sockets, accepted from source, that
// still hold a descriptor: ESTABLISHED, or CLOSE_WAIT (the client has gone
// and the server has not closed yet). It reads the kernel's table of TCP
// sockets rather than the test process's descriptor count, which every other
// server and pool in the process moves too.
func serverConnsFrom(t *testing.T, srv *testserver.Server, source string) int {
	t.Helper()
	_, port, err := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatalf("server address: %v", err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatalf("server port: %v", err)
	}
	ip := net.ParseIP(source).To4()
	remote := fmt.Sprintf("%02X%02X%02X%02X", ip[3], ip[2], ip[1], ip[0]) // little-endian, as the table writes it
	local := fmt.Sprintf(":%04X", p)
	table, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Fatalf("reading the TCP table: %v", err)
	}
	n := 0
	for _, line := range strings.Split(string(table), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasSuffix(f[1], local) || !strings.HasPrefix(f[2], remote+":") {
			continue
		}
		if f[3] == "01" || f[3] == "08" { // ESTABLISHED, CLOSE_WAIT
			n++
		}
	}
	return n
}

// TestSSHConnectionsPerAddressCap: the SSH server holds to the same bound:
// the connection past it is closed before the server says a word, while
// the admitted ones get the server's greeting.
func TestSSHConnectionsPerAddressCap(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSSH(), testserver.WithSettings(func(s *site.Settings) {
		s.Connections.MaxConnsPerAddr = 2
	}))
	dial := func() (net.Conn, *bufio.Reader) {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(countedSource)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", srv.SSHAddr)
		is.NoErr(err)
		t.Cleanup(func() { _ = c.Close() })
		_ = c.SetReadDeadline(time.Now().Add(cutOffWithin))
		return c, bufio.NewReader(c)
	}
	for range 2 {
		_, r := dial()
		greeting, err := r.ReadString('\n')
		is.NoErr(err)
		is.True(strings.HasPrefix(greeting, "SSH-2.0-")) // admitted
	}
	_, r := dial()
	_, err := r.ReadString('\n')
	is.True(err != nil) // closed without a greeting
	var ne net.Error
	is.True(!errors.As(err, &ne) || !ne.Timeout()) // closed, not left waiting
}
