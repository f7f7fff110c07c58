package ports

import (
	"context"
	"net/http"
)

// Outbound is the one door for requests the service makes to other hosts
// (webhook deliveries, migrations, mirrors). It enforces the administrator's
// allow list (site setting allowed_hosts): loopback, private, link-local,
// CGNAT and metadata addresses are refused unless allowed, and the check is
// made on the resolved address at dial time.
type Outbound interface {
	// CheckURL refuses, with errs.Invalid naming field, a URL the service
	// must not contact: a scheme outside schemes, no host, or a host the
	// allow list refuses by name or by its resolved addresses. It is the
	// early check that gives a clear 422; the dial-time check is the one
	// that holds.
	CheckURL(ctx context.Context, field, rawURL string, schemes ...string) error
	// Client is the HTTP client for outbound requests: guarded dialing, no
	// redirects followed (the 3xx response is returned), bounded timeouts.
	Client() *http.Client
}

// Remote is a Git remote with optional credentials. Credentials never
// appear in errors, logs or answers.
type Remote struct {
	URL      string
	Username string
	Password string
}

// GitRemotes fetches from and pushes to other Git servers through the
// outbound guard.
type GitRemotes interface {
	// Fetch makes p's refs mirror the remote's (heads, tags and every other
	// ref, forced, pruning what the remote no longer has).
	Fetch(ctx context.Context, p RepoPath, r Remote) error
	// PushMirror makes the remote's branches and tags mirror p's (forced,
	// pruning what p no longer has).
	PushMirror(ctx context.Context, p RepoPath, r Remote) error
}
