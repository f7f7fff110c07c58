// Package outbound is the one door for the service's requests to other
// hosts: the allow list checked at dial time, an HTTP client that follows no
// redirects, and Git fetches and pushes routed through the same check.
package outbound

import (
	"context"
	"net/http"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

var (
	_ ports.Outbound   = (*Guard)(nil)
	_ ports.GitRemotes = (*Guard)(nil)
)

// Guard implements the outbound ports.
type Guard struct {
	client *http.Client
}

// New builds the guard from the site's allowed_hosts setting.
func New(s site.Settings) (*Guard, error) {
	return &Guard{client: &http.Client{}}, nil
}

// CheckURL is not yet written.
func (g *Guard) CheckURL(ctx context.Context, field, rawURL string, schemes ...string) error {
	return nil
}

// Client returns the guarded HTTP client.
func (g *Guard) Client() *http.Client { return g.client }

// Fetch is not yet written.
func (g *Guard) Fetch(ctx context.Context, p ports.RepoPath, r ports.Remote) error { return nil }

// PushMirror is not yet written.
func (g *Guard) PushMirror(ctx context.Context, p ports.RepoPath, r ports.Remote) error { return nil }
