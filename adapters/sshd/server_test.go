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
		slog.New(slog.NewTextHandler(io.Discard, nil)))
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
