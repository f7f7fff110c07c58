package ports

import (
	"context"
	"net/http"
)

// Outbound is the one door for requests the service makes to other hosts
// (webhook deliveries, migrations, mirrors). It enforces the administrator's
// allow list (site setting allowed_hosts, domain/netpolicy): loopback,
// private, link-local, CGNAT and metadata addresses are refused unless
// allowed, and the check is made on the resolved address at dial time, so
// a DNS answer that changes between check and connection gains nothing.
// A refusal at dial time satisfies errors.Is(err, netpolicy.ErrRefused) and
// its message names the host, the address and its class.
type Outbound interface {
	// CheckURL refuses, with errs.Invalid naming field, a URL the service
	// must not contact: a scheme outside schemes (http and https when none
	// are given; only http, https, ssh and git are ever accepted), no host,
	// or a host the allow list refuses by name or by every address it
	// resolves to (or that does not resolve). It is the early check that
	// gives a clear 422; the dial-time check is the one that holds.
	// Credentials in the URL are allowed and never quoted in the message.
	CheckURL(ctx context.Context, field, rawURL string, schemes ...string) error
	// Client is the HTTP client for outbound requests: guarded dialing, no
	// proxy from the environment, no redirects followed (the 3xx response
	// is returned), a one-minute ceiling per request; callers wanting less
	// (webhook deliveries) bound the request with their context.
	Client() *http.Client
}

// Remote is a Git remote with optional credentials. Credentials never
// appear in errors, logs or answers. When Username and Password are both
// empty, credentials in URL's userinfo are used instead (and taken out of
// the URL git sees).
type Remote struct {
	URL      string
	Username string
	Password string
}

// GitRemotes fetches from and pushes to other Git servers through the
// outbound guard. Only http and https remotes are supported (ssh:// and
// git:// are refused with errs.Invalid "scheme … is not supported"), so
// callers should pass "http", "https" to CheckURL for Git URLs.
//
// Errors: errs.Invalid naming "url" (bad URL, unsupported scheme, host
// refused by name or address), "username" or "password" (line breaks);
// a dial-time refusal satisfies errors.Is(err, netpolicy.ErrRefused); any
// other failure (authentication, missing repository, unreachable host)
// carries git's last lines with the credentials scrubbed out. Cancelling
// ctx stops git.
type GitRemotes interface {
	// Fetch makes p's refs mirror the remote's (heads, tags and every other
	// ref, forced, pruning what the remote no longer has) and returns the
	// branch the remote's HEAD names (its default branch), "" when the
	// remote names none (empty, detached, or no symbolic refs advertised).
	// The name is the remote's word: validate it before use. p's own HEAD
	// is left alone.
	Fetch(ctx context.Context, p RepoPath, r Remote) (head string, err error)
	// PushMirror makes the remote's branches and tags mirror p's (forced,
	// pruning what p no longer has); other refs are left alone.
	PushMirror(ctx context.Context, p RepoPath, r Remote) error
}
