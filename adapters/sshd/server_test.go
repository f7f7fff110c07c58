package sshd

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// A client that connects and never finishes its handshake holds no command:
// stopping the server closes it at once instead of waiting for the
// handshake timeout (30s, beyond the shutdown grace).
func TestServeStopsWithoutWaitingForAStalledHandshake(t *testing.T) {
	is := is.New(t)
	s, err := New(nil, nil, nil, nil, Options{Listen: "127.0.0.1:0", DataDir: t.TempDir()},
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	is.NoErr(err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	c, err := net.Dial("tcp", ln.Addr().String())
	is.NoErr(err)
	defer c.Close()
	// The server speaks first; once its banner is here, the connection is
	// in the handshake, waiting for ours, which never comes.
	banner, err := bufio.NewReader(c).ReadString('\n')
	is.NoErr(err)
	is.True(strings.HasPrefix(banner, "SSH-2.0-Depot"))

	start := time.Now()
	cancel()
	select {
	case err := <-served:
		is.NoErr(err)
	case <-time.After(shutdownGrace / 2):
		t.Fatal("Serve waited for a connection stuck in its handshake")
	}
	is.True(time.Since(start) < shutdownGrace/2)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = c.Read(make([]byte, 1))
	is.True(err != nil) // the server closed it
}

// One address may hold only maxStartupsPerHost connections in their
// handshake; the next is closed at once, and a slot frees when a handshake
// ends.
func TestServeLimitsUnauthenticatedConnectionsPerHost(t *testing.T) {
	is := is.New(t)
	s, err := New(nil, nil, nil, nil, Options{Listen: "127.0.0.1:0", DataDir: t.TempDir()},
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	is.NoErr(err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Serve(ctx, ln) }()

	// open connects and waits for the server's banner (the handshake began),
	// or reports that the server closed the connection instead.
	open := func() (net.Conn, bool) {
		c, err := net.Dial("tcp", ln.Addr().String())
		is.NoErr(err)
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		banner, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			_ = c.Close()
			return nil, false
		}
		is.True(strings.HasPrefix(banner, "SSH-2.0-"))
		return c, true
	}
	var held []net.Conn
	for range maxStartupsPerHost {
		c, ok := open()
		is.True(ok) // within the limit
		held = append(held, c)
	}
	_, ok := open()
	is.True(!ok) // one more is refused

	_ = held[0].Close() // its handshake fails: the slot frees
	deadline := time.Now().Add(5 * time.Second)
	for {
		if c, ok := open(); ok {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slot of a closed handshake was not freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range held[1:] {
		_ = c.Close()
	}
}
