package main

import (
	"log/slog"
	"slices"
	"time"

	"github.com/depothq/depot/domain/site"
)

// Config is the server configuration. Each key comes from, in rising order of
// precedence: the defaults, an optional TOML file, DEPOT_* environment
// variables and command-line flags. docs/configuration.md lists every key.
type Config struct {
	// Listen is the TCP address the HTTP server binds, host:port.
	Listen string `toml:"listen"`
	// BaseURL is the public root URL without a trailing slash; empty in the
	// sources means "http://" + Listen.
	BaseURL string `toml:"base_url"`
	// DataDir holds repositories, the SQLite database and other state.
	DataDir string `toml:"data_dir"`
	// DB is a postgres:// DSN, or empty for the embedded SQLite database in DataDir.
	DB string `toml:"db"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `toml:"log_level"`
	// LogFormat is auto (coloured text on a terminal, JSON otherwise), text or json.
	LogFormat string `toml:"log_format"`
	// SSHListen is the built-in SSH server's address, host:port; empty: off.
	SSHListen string `toml:"ssh_listen"`
	// AllowedHosts is the allow list of outbound requests (webhooks,
	// migrations, mirrors), Gitea's vocabulary, comma separated.
	AllowedHosts string `toml:"allowed_hosts"`
	// SSHTrustedUserCAKeys are the public keys (authorized_keys lines) of
	// the certificate authorities whose SSH user certificates may sign API
	// requests (Gitea's SSH_TRUSTED_USER_CA_KEYS).
	SSHTrustedUserCAKeys []string `toml:"ssh_trusted_user_ca_keys"`
	// MemoryLimit is the Go runtime's soft memory limit in bytes
	// (debug.SetMemoryLimit); 0 turns it off. GOMEMLIMIT, when set, wins.
	MemoryLimit int64 `toml:"memory_limit"`
	// Site holds the site policy settings, the [site] table of the file.
	Site SiteConfig `toml:"site"`
	// Repository holds the [repository] tables (Gitea's names).
	Repository RepositoryConfig `toml:"repository"`
	// Federation is the [federation] table (Gitea's names).
	Federation FederationConfig `toml:"federation"`
	// RateLimit holds the API's request limits, the [rate_limit] table.
	RateLimit RateLimitConfig `toml:"rate_limit"`
	// Metrics is the [metrics] table (Gitea's names).
	Metrics MetricsConfig `toml:"metrics"`
	// API is the [api] table (Gitea's names).
	API APIConfig `toml:"api"`
	// Cron holds the periodic tasks' [cron.<task>] tables (Gitea's names).
	Cron CronConfig `toml:"cron"`
	// Service is the [service] table's reverse-proxy switches (Gitea's names).
	Service ServiceConfig `toml:"service"`
	// Security is the [security] table's reverse-proxy headers and
	// addresses (Gitea's names).
	Security SecurityConfig `toml:"security"`

	// File is the configuration file that was read, or "" when none was.
	File string `toml:"-"`
}

// SiteConfig is the [site] table: the administrator's policy choices, one
// field per field of site.Settings.
type SiteConfig struct {
	// Name is the site's display name.
	Name string `toml:"name"`
	// RequireSignInView answers 403 to anonymous API calls.
	RequireSignInView bool `toml:"require_signin_view"`
	// DisableUsersPage hides user search and listing.
	DisableUsersPage bool `toml:"disable_users_page"`
	// RestrictExploring asks sign-in for user search and profile reads.
	RestrictExploring bool `toml:"restrict_exploring"`
	// EnableWebhooks turns the webhook routes on.
	EnableWebhooks bool `toml:"enable_webhooks"`
	// EnableStars turns the star routes on.
	EnableStars bool `toml:"enable_stars"`
	// EnableGitHooks lets admins and allowed accounts edit Git hook scripts.
	EnableGitHooks bool `toml:"enable_git_hooks"`
	// RequireEmailConfirmation makes unactivated accounts answer 403.
	RequireEmailConfirmation bool `toml:"require_email_confirmation"`
	// AcceptQueryToken keeps the deprecated ?token= and ?access_token= working.
	AcceptQueryToken bool `toml:"accept_query_token"`
	// CORSAllowedOrigins enables CORS for these origins ("*" for any).
	CORSAllowedOrigins []string `toml:"cors_allowed_origins"`
	// CORSAllowedHeaders are extra request headers CORS allows.
	CORSAllowedHeaders []string `toml:"cors_allowed_headers"`
	// MaxBodyBytes bounds every request body.
	MaxBodyBytes int64 `toml:"max_body_bytes"`
	// MaxFileBytes bounds one file written through the contents API.
	MaxFileBytes int64 `toml:"max_file_bytes"`
	// MaxChangeFiles bounds how many files one contents write may change.
	MaxChangeFiles int `toml:"max_change_files"`
	// DefaultPagingNum is the page size when a list call gives no limit.
	DefaultPagingNum int `toml:"default_paging_num"`
	// MaxResponseItems is the largest page a list call may ask for.
	MaxResponseItems int `toml:"max_response_items"`
	// PasswordMinLength is the shortest password the API accepts.
	PasswordMinLength int `toml:"password_min_length"`
	// WebhookMaxAttempts is how many times a webhook delivery is tried.
	WebhookMaxAttempts int `toml:"webhook_max_attempts"`
	// WebhookTimeout bounds one delivery attempt, in seconds.
	WebhookTimeout int `toml:"webhook_timeout"`
	// WebhookRetryDelay is the wait before a delivery's first retry, in
	// seconds; each further retry waits twice as long.
	WebhookRetryDelay int `toml:"webhook_retry_delay"`
	// DisableAttachments turns issue and comment attachments off (404).
	DisableAttachments bool `toml:"disable_attachments"`
	// AttachmentMaxBytes bounds one attachment; 0 means Gitea's 100 MiB
	// (max_body_bytes still bounds the upload request).
	AttachmentMaxBytes int64 `toml:"attachment_max_bytes"`
	// PackageMaxBytes bounds one package file; 0 means no limit of its own
	// (max_body_bytes still bounds the upload request).
	PackageMaxBytes int64 `toml:"package_max_bytes"`
	// AttachmentAllowedTypes lists the extensions and MIME types an
	// attachment may have, comma-separated; empty means Gitea's list.
	AttachmentAllowedTypes string `toml:"attachment_allowed_types"`
	// AttachmentMaxFiles is how many files one upload may carry; 0 means 5.
	AttachmentMaxFiles int `toml:"attachment_max_files"`
	// CommitCountBudget is how many milliseconds a path-filtered commit
	// listing waits for its total once it has its page.
	CommitCountBudget int `toml:"commit_count_budget"`
	// PullMaxFiles bounds how many files a pull request's file listing reaches.
	PullMaxFiles int `toml:"pull_max_files"`
	// PullDiffMaxLines bounds a pull request's .diff and .patch; 0 sets none.
	PullDiffMaxLines int `toml:"pull_diff_max_lines"`
	// ConnectionConfig holds the connection limits' keys (config_connections.go).
	ConnectionConfig
}

// RepositoryConfig is the [repository] table.
type RepositoryConfig struct {
	// HousekeepingDelay is how many seconds after a push its repository
	// is tidied (git gc, when it needs it); -1 turns that off.
	HousekeepingDelay int `toml:"housekeeping_delay"`
	// PackCacheBytes bounds the disk space kept answers to clones over HTTP
	// take; 0 keeps none.
	PackCacheBytes int64 `toml:"pack_cache_bytes"`
	// Signing is [repository.signing].
	Signing SigningConfig `toml:"signing"`
}

// FederationConfig is [federation]: Gitea's ENABLED and
// SHARE_USER_STATISTICS.
type FederationConfig struct {
	// Enabled serves NodeInfo.
	Enabled bool `toml:"enabled"`
	// ShareUserStatistics adds the site's counts to NodeInfo.
	ShareUserStatistics bool `toml:"share_user_statistics"`
}

// MetricsConfig is [metrics]: Gitea's ENABLED and TOKEN.
type MetricsConfig struct {
	// Enabled serves /metrics.
	Enabled bool `toml:"enabled"`
	// Token is the Bearer token a scrape must send; empty: none.
	Token string `toml:"token"`
}

// APIConfig is [api]: Gitea's ENABLE_SWAGGER.
type APIConfig struct {
	// EnableSwagger serves the OpenAPI document and the interactive API page.
	EnableSwagger bool `toml:"enable_swagger"`
}

// SigningConfig is [repository.signing]: Gitea's SIGNING_KEY, SIGNING_NAME
// and SIGNING_EMAIL.
type SigningConfig struct {
	// Key is "none" or "default" (Depot's own key, made at first start).
	Key   string `toml:"signing_key"`
	Name  string `toml:"signing_name"`
	Email string `toml:"signing_email"`
}

// defaultMemoryLimit is memory_limit's default: 128 MiB. At 96 MiB the
// peak of a burst of sign-ins was 40 MB lower but each failed sign-in cost
// about 30% more CPU (a collection per derivation); at 128 MiB about 5%.
const defaultMemoryLimit = 128 << 20

// DefaultConfig returns the configuration used when no source sets a key.
// BaseURL stays empty here; LoadConfig derives it from Listen.
func DefaultConfig() Config {
	s := site.Defaults()
	c := Config{
		Listen:    "127.0.0.1:3000",
		DataDir:   "./data",
		LogLevel:  "info",
		LogFormat: "auto",
		// Depot's heap idles at about 35 MiB; the limit makes the collector
		// run before a burst of password sign-ins (19 MiB of argon2id memory
		// each) doubles the heap, and returns memory above it to the system.
		MemoryLimit: defaultMemoryLimit,
		Site: SiteConfig{
			Name:                     s.Name,
			RequireSignInView:        s.RequireSignInView,
			DisableUsersPage:         s.DisableUsersPage,
			RestrictExploring:        s.RestrictExploring,
			EnableWebhooks:           s.EnableWebhooks,
			EnableStars:              s.EnableStars,
			EnableGitHooks:           s.EnableGitHooks,
			RequireEmailConfirmation: s.RequireEmailConfirmation,
			AcceptQueryToken:         s.AcceptQueryToken,
			CORSAllowedOrigins:       slices.Clone(s.CORSAllowedOrigins),
			CORSAllowedHeaders:       slices.Clone(s.CORSAllowedHeaders),
			MaxBodyBytes:             s.MaxBodyBytes,
			MaxFileBytes:             s.MaxFileBytes,
			MaxChangeFiles:           s.MaxChangeFiles,
			DefaultPagingNum:         s.DefaultPagingNum,
			MaxResponseItems:         s.MaxResponseItems,
			PasswordMinLength:        s.PasswordMinLength,
			WebhookMaxAttempts:       s.WebhookMaxAttempts,
			WebhookTimeout:           int(s.WebhookTimeout / time.Second),
			WebhookRetryDelay:        int(s.WebhookRetryDelay / time.Second),
			DisableAttachments:       s.DisableAttachments,
			AttachmentMaxBytes:       s.AttachmentMaxBytes,
			PackageMaxBytes:          s.PackageMaxBytes,
			AttachmentAllowedTypes:   s.AttachmentAllowedTypes,
			AttachmentMaxFiles:       s.AttachmentMaxFiles,
			CommitCountBudget:        int(s.CommitCountBudget / time.Millisecond),
			PullMaxFiles:             s.PullMaxFiles,
			PullDiffMaxLines:         s.PullDiffMaxLines,
			ConnectionConfig:         connectionConfig(s.Connections),
		},
		Repository: RepositoryConfig{HousekeepingDelay: housekeepingDelayConfig(s.HousekeepingDelay),
			PackCacheBytes: s.PackCacheBytes,
			Signing:        SigningConfig{Key: s.Signing.Key}},
		RateLimit:  rateLimitConfig(s.RateLimits),
		Federation: FederationConfig{Enabled: s.Federation.Enabled, ShareUserStatistics: s.Federation.ShareUserStatistics},
		API:        APIConfig{EnableSwagger: s.APIDocs.EnableSwagger},
		Cron:       cronConfig(s.Cron),
	}
	c.Service, c.Security = reverseProxyConfig(s.ReverseProxy)
	return c
}

// SiteSettings returns the site policy the domain reads.
func (c Config) SiteSettings() site.Settings {
	return site.Settings{
		Name:                     c.Site.Name,
		BaseURL:                  c.BaseURL,
		RequireSignInView:        c.Site.RequireSignInView,
		DisableUsersPage:         c.Site.DisableUsersPage,
		RestrictExploring:        c.Site.RestrictExploring,
		EnableWebhooks:           c.Site.EnableWebhooks,
		EnableStars:              c.Site.EnableStars,
		EnableGitHooks:           c.Site.EnableGitHooks,
		RequireEmailConfirmation: c.Site.RequireEmailConfirmation,
		AcceptQueryToken:         c.Site.AcceptQueryToken,
		CORSAllowedOrigins:       slices.Clone(c.Site.CORSAllowedOrigins),
		CORSAllowedHeaders:       slices.Clone(c.Site.CORSAllowedHeaders),
		MaxBodyBytes:             c.Site.MaxBodyBytes,
		MaxFileBytes:             c.Site.MaxFileBytes,
		MaxChangeFiles:           c.Site.MaxChangeFiles,
		DefaultPagingNum:         c.Site.DefaultPagingNum,
		MaxResponseItems:         c.Site.MaxResponseItems,
		PasswordMinLength:        c.Site.PasswordMinLength,
		SSHListen:                c.SSHListen,
		AllowedHosts:             c.AllowedHosts,
		SSHTrustedUserCAKeys:     slices.Clone(c.SSHTrustedUserCAKeys),
		WebhookMaxAttempts:       c.Site.WebhookMaxAttempts,
		WebhookTimeout:           time.Duration(c.Site.WebhookTimeout) * time.Second,
		WebhookRetryDelay:        time.Duration(c.Site.WebhookRetryDelay) * time.Second,
		DisableAttachments:       c.Site.DisableAttachments,
		AttachmentMaxBytes:       c.Site.AttachmentMaxBytes,
		PackageMaxBytes:          c.Site.PackageMaxBytes,
		AttachmentAllowedTypes:   c.Site.AttachmentAllowedTypes,
		AttachmentMaxFiles:       c.Site.AttachmentMaxFiles,
		CommitCountBudget:        time.Duration(c.Site.CommitCountBudget) * time.Millisecond,
		PullMaxFiles:             c.Site.PullMaxFiles,
		PullDiffMaxLines:         c.Site.PullDiffMaxLines,
		Connections:              c.Site.limits(),
		RateLimits:               c.RateLimit.limits(),
		Metrics:                  site.Metrics{Enabled: c.Metrics.Enabled, Token: c.Metrics.Token},
		APIDocs:                  site.APIDocs{EnableSwagger: c.API.EnableSwagger},
		Federation: site.Federation{Enabled: c.Federation.Enabled,
			ShareUserStatistics: c.Federation.ShareUserStatistics},
		Signing: site.CommitSigning{Key: c.Repository.Signing.Key, Name: c.Repository.Signing.Name,
			Email: c.Repository.Signing.Email},
		HousekeepingDelay: housekeepingDelay(c.Repository.HousekeepingDelay),
		PackCacheBytes:    c.Repository.PackCacheBytes,
		Cron:              c.Cron.tasks(),
		ReverseProxy:      c.reverseProxy(),
	}
}

// housekeepingDelay is repository.housekeeping_delay as the site reads it:
// -1 (off) is a negative duration.
func housekeepingDelay(seconds int) time.Duration {
	if seconds < 0 {
		return -1
	}
	return time.Duration(seconds) * time.Second
}

// housekeepingDelayConfig is housekeepingDelay's inverse.
func housekeepingDelayConfig(d time.Duration) int {
	if d < 0 {
		return -1
	}
	return int(d / time.Second)
}

// SlogLevel returns LogLevel as a slog.Level; an unknown level reads as info
// (Validate rejects it before this matters).
func (c Config) SlogLevel() slog.Level {
	switch c.LogLevel {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// LogJSON reports whether logs should be JSON, given whether the log output
// is a terminal: "auto" means text for people and JSON for machines.
func (c Config) LogJSON(terminal bool) bool {
	switch c.LogFormat {
	case "json":
		return true
	case "text":
		return false
	}
	return !terminal
}
