// Package site holds the site-wide settings that policy reads: who may view
// without signing in, which features are on, paging and size limits.
package site

import (
	"net/url"
	"time"
)

// Settings are the administrator's choices that change what callers may do.
// They are plain values; the command line fills them from flags, environment and file.
type Settings struct {
	// Name is the site's display name (settings/ui and tokens).
	Name string
	// BaseURL is the public root URL, without a trailing slash.
	BaseURL string

	// RequireSignInView answers 403 to anonymous API calls (spec 5.9).
	RequireSignInView bool
	// DisableUsersPage hides user search and listing (404).
	DisableUsersPage bool
	// RestrictExploring asks sign-in for user search and profile reads (401).
	RestrictExploring bool
	// EnableWebhooks turns the hook routes on (WH).
	EnableWebhooks bool
	// EnableStars turns the star routes on (ST).
	EnableStars bool
	// EnableGitHooks lets site admins and accounts allowed to edit Git hooks
	// manage repositories' Git hook scripts (R/hooks/git); off by default,
	// as Gitea's DISABLE_GIT_HOOKS is on: a script runs on the server.
	EnableGitHooks bool
	// RequireEmailConfirmation makes unactivated accounts answer 403.
	RequireEmailConfirmation bool
	// AcceptQueryToken keeps the deprecated ?token=/?access_token= working as
	// credentials; when false they are ignored (the request runs anonymous).
	// Either way the response carries the deprecation warning.
	AcceptQueryToken bool

	// CORSAllowedOrigins enables CORS for these origins ("*" for any); empty disables it.
	CORSAllowedOrigins []string
	// CORSAllowedHeaders are request headers allowed beyond Authorization and X-Service-OTP.
	CORSAllowedHeaders []string

	// MaxBodyBytes bounds every request body (413 past it).
	MaxBodyBytes int64
	// MaxFileBytes bounds one file written through the contents API (413
	// past it); Gitea's [repository.upload] FILE_MAX_SIZE is 50 MB.
	MaxFileBytes int64
	// MaxChangeFiles bounds how many files one contents write may change
	// (POST R/contents); past it the request is answered 422 naming Files
	// and nothing is written. Gitea sets no bound; every file costs the write and its
	// answer an entry, so one request's work stays proportional to it.
	MaxChangeFiles int
	// DefaultPagingNum is the page size when a list call gives no limit.
	DefaultPagingNum int
	// MaxResponseItems is the largest page a list call may ask for.
	MaxResponseItems int
	// PasswordMinLength is the shortest password the API accepts.
	PasswordMinLength int

	// DisableAttachments turns issue and comment attachments off: their
	// routes answer 404 (Gitea's [attachment] ENABLED = false).
	DisableAttachments bool
	// AttachmentMaxBytes bounds one attachment (413 past it); 0 means
	// Gitea's default, 100 MiB.
	AttachmentMaxBytes int64
	// AttachmentAllowedTypes lists the extensions and MIME types an
	// attachment may have, comma separated as Gitea's ALLOWED_TYPES ("*/*"
	// for any); empty means Gitea's default list.
	AttachmentAllowedTypes string
	// AttachmentMaxFiles is how many files one upload form may carry, told
	// to clients; 0 means Gitea's default, 5.
	AttachmentMaxFiles int
	// PackageMaxBytes bounds one package file (413 past it); 0 means no
	// limit of its own, as Gitea's LIMIT_SIZE_* = -1.
	PackageMaxBytes int64

	// SSHListen is the built-in SSH server's address (host:port); empty
	// turns it off. Repository records' ssh_url use its port.
	SSHListen string
	// AllowedHosts is the allow list of every outbound request (webhooks,
	// migrations, mirrors), comma separated in Gitea's vocabulary:
	// "external" (the default when empty), "loopback", "private", "*",
	// CIDRs and host globs.
	AllowedHosts string
	// SSHTrustedUserCAKeys are the public keys (authorized_keys lines) of
	// the certificate authorities whose SSH user certificates may sign API
	// requests (HTTP signatures); the certificate's principal names the
	// account.
	SSHTrustedUserCAKeys []string

	// WebhookMaxAttempts is how many times a webhook delivery is tried
	// (network errors and 5xx answers are retried) before it is given up.
	WebhookMaxAttempts int
	// WebhookTimeout bounds one delivery attempt, connection to last byte
	// (Gitea's [webhook] DELIVER_TIMEOUT).
	WebhookTimeout time.Duration
	// WebhookRetryDelay is the wait before a delivery's first retry; each
	// further retry waits twice as long as the one before.
	WebhookRetryDelay time.Duration

	// CommitCountBudget is how long a commit listing filtered by a path
	// waits for its total once it has its page: counting a rarely changed
	// path walks the whole history, seconds in a large repository, so past
	// this the page is answered without a total and the count finishes in
	// the background.
	CommitCountBudget time.Duration

	// HousekeepingDelay is how long after a push Depot tidies the
	// repository's objects (repository.NeedsHousekeeping says whether it
	// runs `git gc`); the pushes meanwhile share that run. Negative: never
	// after a push (the git_gc_repos task still runs).
	HousekeepingDelay time.Duration

	// PackCacheBytes bounds the disk space that answers to whole-history
	// fetches over HTTP (clones) take while kept to answer the next
	// identical one (githttp.PackCache); 0 keeps none.
	PackCacheBytes int64

	// PullMaxFiles bounds how many files a pull request's file listing
	// (R/pulls/{index}/files) reaches: the files sorted past it are left
	// out, the answer says X-Service-Diff-Truncated: true and X-Total-Count
	// still counts every file. The default is GitHub's bound for the same
	// listing, 3,000 (GitHub renders 300 in a page and Gitea 100; a listing
	// is paged, so it can reach further than a rendered diff).
	PullMaxFiles int
	// PullDiffMaxLines bounds the lines a pull request's .diff or .patch
	// streams; 0, the default, sets no bound. A stream costs constant
	// memory whatever its size, and a cut diff no longer applies (git apply
	// and git am refuse it or, worse, apply a part), so by default the whole
	// diff is sent, as Gitea does. When the bound cuts a stream, it ends at
	// a line's end and the HTTP trailer X-Service-Diff-Truncated: true says
	// so (the status and headers are already sent by then). GitHub refuses
	// diffs over 20,000 lines: a site wanting a bound can take that.
	PullDiffMaxLines int

	// Signing says whether and as whom Depot signs the commits it writes
	// itself (Gitea's [repository.signing]).
	Signing CommitSigning

	// Connections bound the time and connections one client can hold.
	Connections ConnectionLimits
	// Federation describes the site to other servers (NodeInfo).
	Federation Federation
	// RateLimits bound the API requests of one caller.
	RateLimits RateLimits
	// Metrics configure the /metrics page.
	Metrics Metrics
	// APIDocs serve the OpenAPI document and its interactive page.
	APIDocs APIDocs
	// ReverseProxy is reverse-proxy authentication, off by default.
	ReverseProxy ReverseProxyAuth
	// Cron configures the periodic tasks, by name (CronUpdateMirrors, …).
	Cron map[string]CronTask
}

// Signing keys Depot knows (Gitea's SIGNING_KEY values).
const (
	// SigningNone signs nothing; /signing-key.gpg answers 404.
	SigningNone = "none"
	// SigningDefault signs with Depot's own OpenPGP key, made at the first
	// start under the data directory.
	SigningDefault = "default"
)

// CommitSigning is Gitea's [repository.signing] as Depot has it: one key
// signs every commit Depot makes itself (the first commit of a new or
// generated repository, contents API writes, merges, squashes, rebases and
// updates of pull requests); pushed commits are the pusher's and stay as
// pushed.
type CommitSigning struct {
	// Key is SigningNone or SigningDefault.
	Key string
	// Name and Email name the key's owner when it is made; empty: the
	// site's name and noreply@ the site's host.
	Name, Email string
}

// Enabled reports whether commits are signed.
func (c CommitSigning) Enabled() bool { return c.Key == SigningDefault }

// SigningIdentity is the name and address of the key that signs Depot's
// commits: those configured, else the site's name and noreply@ the site's
// host. Commits that key signed are shown as verified by this identity.
func (s Settings) SigningIdentity() (name, email string) {
	name, email = s.Signing.Name, s.Signing.Email
	if name == "" {
		name = s.Name
	}
	if email == "" {
		host := "localhost"
		if u, err := url.Parse(s.BaseURL); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		email = "noreply@" + host
	}
	return name, email
}

// Defaults returns Gitea's defaults where Gitea has one.
func Defaults() Settings {
	return Settings{
		Name:               "Depot",
		BaseURL:            "http://127.0.0.1:3000",
		Signing:            CommitSigning{Key: SigningNone},
		EnableWebhooks:     true,
		EnableStars:        true,
		CORSAllowedHeaders: nil,
		MaxBodyBytes:       32 << 20,
		MaxFileBytes:       50 << 20,
		MaxChangeFiles:     2000,
		DefaultPagingNum:   30,
		MaxResponseItems:   50,
		PasswordMinLength:  8,
		WebhookMaxAttempts: 5,
		WebhookTimeout:     5 * time.Second,
		WebhookRetryDelay:  10 * time.Second,
		CommitCountBudget:  100 * time.Millisecond,
		HousekeepingDelay:  10 * time.Second,
		PackCacheBytes:     512 << 20,
		PullMaxFiles:       3000,
		Connections:        DefaultConnectionLimits(),
		Federation:         Federation{ShareUserStatistics: true},
		RateLimits:         DefaultRateLimits(),
		ReverseProxy:       DefaultReverseProxyAuth(),
		APIDocs:            APIDocs{EnableSwagger: true},
		Cron:               DefaultCron(),
	}
}
