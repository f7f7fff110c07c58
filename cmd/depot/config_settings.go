package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// setting describes one key in all three sources. The table drives flag
// registration, environment lookup and docs/configuration.md alike, so the
// three cannot drift apart.
type setting struct {
	key   string // TOML key, dotted for the [site] table
	flag  string // flag name without dashes; the env var is derived from it
	usage string
	// field returns a pointer into c: *string, *bool, *int, *int64 or *[]string.
	field func(c *Config) any
	// docDefault, when set, describes a default that is not a plain value
	// (Markdown, for docs/configuration.md; also appended to the flag's help).
	docDefault string
}

// envName is DEPOT_ followed by the flag name in upper snake case.
func (s setting) envName() string {
	return "DEPOT_" + strings.ToUpper(strings.ReplaceAll(s.flag, "-", "_"))
}

// Names of the key that chooses the configuration file.
const (
	configFlag = "config"
	configEnv  = "DEPOT_CONFIG"
)

func settings() []setting {
	return append([]setting{
		{key: "listen", flag: "listen", usage: "TCP address (host:port) the HTTP server listens on",
			field: func(c *Config) any { return &c.Listen }},
		{key: "base_url", flag: "base-url", usage: "public root URL, used in links and clone URLs (trailing slash dropped)",
			field: func(c *Config) any { return &c.BaseURL }, docDefault: "`http://` + listen address"},
		{key: "data_dir", flag: "data-dir", usage: "directory for repositories, the SQLite database and other state",
			field: func(c *Config) any { return &c.DataDir }},
		{key: "db", flag: "db", usage: "postgres:// DSN; empty uses the embedded SQLite database in the data directory",
			field: func(c *Config) any { return &c.DB }, docDefault: "empty: embedded SQLite"},
		{key: "log_level", flag: "log-level", usage: "log level: debug, info, warn or error",
			field: func(c *Config) any { return &c.LogLevel }},
		{key: "log_format", flag: "log-format", usage: "log format: auto (coloured text on a terminal, JSON otherwise), text or json",
			field: func(c *Config) any { return &c.LogFormat }},
		{key: "ssh_listen", flag: "ssh-listen", usage: "address (host:port) of the built-in SSH server; empty turns it off",
			field: func(c *Config) any { return &c.SSHListen }, docDefault: "empty: off"},
		{key: "allowed_hosts", flag: "allowed-hosts", usage: "hosts outbound requests (webhooks, migrations, mirrors) may reach: external, loopback, private, *, CIDRs, host globs; comma-separated",
			field: func(c *Config) any { return &c.AllowedHosts }, docDefault: "empty: `external` (public addresses only)"},
		{key: "ssh_trusted_user_ca_keys", flag: "ssh-trusted-user-ca-keys", usage: "public keys (authorized_keys lines) of the SSH certificate authorities whose user certificates may sign API requests (HTTP signatures, the certificate's principal naming the account); comma-separated",
			field: func(c *Config) any { return &c.SSHTrustedUserCAKeys }, docDefault: "empty: none trusted"},
		{key: "memory_limit", flag: "memory-limit", usage: "soft limit in bytes of the memory the Go runtime keeps (the collector works harder near it and returns memory above it to the system); 0 turns it off; the GOMEMLIMIT variable, when set, wins; raise it on a site whose heap in use nears it",
			field: func(c *Config) any { return &c.MemoryLimit }, docDefault: "134217728 (128 MiB)"},

		{key: "site.name", flag: "site-name", usage: "site display name",
			field: func(c *Config) any { return &c.Site.Name }},
		{key: "site.require_signin_view", flag: "require-signin-view", usage: "refuse anonymous API calls (403)",
			field: func(c *Config) any { return &c.Site.RequireSignInView }},
		{key: "site.disable_users_page", flag: "disable-users-page", usage: "hide user search and listing (404)",
			field: func(c *Config) any { return &c.Site.DisableUsersPage }},
		{key: "site.restrict_exploring", flag: "restrict-exploring", usage: "require sign-in for user search and profile reads (401)",
			field: func(c *Config) any { return &c.Site.RestrictExploring }},
		{key: "site.enable_webhooks", flag: "enable-webhooks", usage: "enable the webhook routes",
			field: func(c *Config) any { return &c.Site.EnableWebhooks }},
		{key: "site.enable_stars", flag: "enable-stars", usage: "enable the star routes",
			field: func(c *Config) any { return &c.Site.EnableStars }},
		{key: "site.enable_git_hooks", flag: "enable-git-hooks", usage: "let site admins and accounts allowed to edit Git hooks manage repositories' server-side hook scripts (they run on the server)",
			field: func(c *Config) any { return &c.Site.EnableGitHooks }},
		{key: "site.require_email_confirmation", flag: "require-email-confirmation", usage: "refuse unactivated accounts (403)",
			field: func(c *Config) any { return &c.Site.RequireEmailConfirmation }},
		{key: "site.accept_query_token", flag: "accept-query-token", usage: "accept the deprecated ?token= and ?access_token= query credentials",
			field: func(c *Config) any { return &c.Site.AcceptQueryToken }},
		{key: "site.cors_allowed_origins", flag: "cors-allowed-origins", usage: "origins allowed by CORS, comma-separated (\"*\" for any); empty disables CORS",
			field: func(c *Config) any { return &c.Site.CORSAllowedOrigins }},
		{key: "site.cors_allowed_headers", flag: "cors-allowed-headers", usage: "request headers CORS allows beyond Authorization and X-Service-OTP, comma-separated",
			field: func(c *Config) any { return &c.Site.CORSAllowedHeaders }},
		{key: "site.max_body_bytes", flag: "max-body-bytes", usage: "largest request body in bytes (413 past it)",
			field: func(c *Config) any { return &c.Site.MaxBodyBytes }},
		{key: "site.max_file_bytes", flag: "max-file-bytes", usage: "largest file written through the contents API, in bytes (413 past it)",
			field: func(c *Config) any { return &c.Site.MaxFileBytes }},
		{key: "site.max_change_files", flag: "max-change-files", usage: "most files one contents write (POST /repos/{owner}/{repo}/contents) may change (422 past it)",
			field: func(c *Config) any { return &c.Site.MaxChangeFiles }},
		{key: "site.default_paging_num", flag: "default-paging-num", usage: "page size when a list call gives no limit",
			field: func(c *Config) any { return &c.Site.DefaultPagingNum }},
		{key: "site.max_response_items", flag: "max-response-items", usage: "largest page size a list call may ask for",
			field: func(c *Config) any { return &c.Site.MaxResponseItems }},
		{key: "site.password_min_length", flag: "password-min-length", usage: "shortest password the API accepts",
			field: func(c *Config) any { return &c.Site.PasswordMinLength }},
		{key: "site.webhook_max_attempts", flag: "webhook-max-attempts", usage: "tries of a webhook delivery (network errors and 5xx answers are retried) before it is given up",
			field: func(c *Config) any { return &c.Site.WebhookMaxAttempts }},
		{key: "site.webhook_timeout", flag: "webhook-timeout", usage: "seconds one webhook delivery attempt may take",
			field: func(c *Config) any { return &c.Site.WebhookTimeout }},
		{key: "site.webhook_retry_delay", flag: "webhook-retry-delay", usage: "seconds before a failed webhook delivery's first retry; each further retry waits twice as long",
			field: func(c *Config) any { return &c.Site.WebhookRetryDelay }},
		{key: "site.disable_attachments", flag: "disable-attachments", usage: "turn issue and comment attachments off (their routes answer 404)",
			field: func(c *Config) any { return &c.Site.DisableAttachments }},
		{key: "site.attachment_max_bytes", flag: "attachment-max-bytes", usage: "largest attachment in bytes (413 past it); 0 means 100 MiB (Gitea's default), within max_body_bytes",
			field: func(c *Config) any { return &c.Site.AttachmentMaxBytes }},
		{key: "site.package_max_bytes", flag: "package-max-bytes", usage: "largest package file in bytes (413 past it); 0 means no limit of its own, within max_body_bytes",
			field: func(c *Config) any { return &c.Site.PackageMaxBytes }},
		{key: "site.attachment_allowed_types", flag: "attachment-allowed-types", usage: "extensions and MIME types attachments may have, comma-separated; empty means Gitea's list",
			field: func(c *Config) any { return &c.Site.AttachmentAllowedTypes }},
		{key: "site.attachment_max_files", flag: "attachment-max-files", usage: "files one attachment upload may carry; 0 means 5",
			field: func(c *Config) any { return &c.Site.AttachmentMaxFiles }},
		{key: "site.commit_count_budget", flag: "commit-count-budget", usage: "milliseconds a path-filtered commit listing waits for its total once it has its page; past it the total is counted in the background",
			field: func(c *Config) any { return &c.Site.CommitCountBudget }},
		{key: "site.pull_max_files", flag: "pull-max-files", usage: "files a pull request's file listing reaches (X-Service-Diff-Truncated past it)",
			field: func(c *Config) any { return &c.Site.PullMaxFiles }},
		{key: "site.pull_diff_max_lines", flag: "pull-diff-max-lines", usage: "lines a pull request's .diff or .patch streams before it is cut; 0 sets no bound",
			field: func(c *Config) any { return &c.Site.PullDiffMaxLines }},
	}, slices.Concat(connectionSettings(), rateLimitSettings(), metricsSettings(), federationSettings(), apiSettings(), signingSettings(), cronSettings(), reverseProxySettings())...)
}

// setField parses raw into the field ptr points at.
func setField(ptr any, raw string) error {
	switch p := ptr.(type) {
	case *string:
		*p = raw
	case *bool:
		b, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			return fmt.Errorf("%q is not a boolean (want true or false)", raw)
		}
		*p = b
	case *int:
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil {
			return fmt.Errorf("%q is not an integer", raw)
		}
		*p = n
	case *int64:
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", raw)
		}
		*p = n
	case *[]string:
		*p = splitList(raw)
	default:
		panic(fmt.Sprintf("config: unsupported field type %T", ptr))
	}
	return nil
}

// formatField renders the field ptr points at the way setField reads it.
func formatField(ptr any) string {
	switch p := ptr.(type) {
	case *string:
		return *p
	case *bool:
		return strconv.FormatBool(*p)
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *[]string:
		return strings.Join(*p, ",")
	}
	panic(fmt.Sprintf("config: unsupported field type %T", ptr))
}

// splitList reads a comma-separated list, trimming spaces and dropping empty items.
func splitList(raw string) []string {
	var out []string
	for item := range strings.SplitSeq(raw, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// apiSettings are the [api] keys (Gitea's names).
func apiSettings() []setting {
	return []setting{
		{key: "api.enable_swagger", flag: "api-enable-swagger", usage: "serve the OpenAPI document at /swagger.v1.json and /openapi3.v1.json and the interactive API page at /api/swagger (/api/v1/swagger redirects there); off, they answer 404",
			field: func(c *Config) any { return &c.API.EnableSwagger }},
	}
}

// federationSettings are the [federation] keys (Gitea's names).
func federationSettings() []setting {
	return []setting{
		{key: "federation.enabled", flag: "federation", usage: "describe the site to other servers with NodeInfo 2.1 at /api/v1/nodeinfo and /.well-known/nodeinfo, and serve accounts as ActivityPub actors under /api/v1/activitypub (inboxes taking signed Follow, Like and Undo); off, they answer 404",
			field: func(c *Config) any { return &c.Federation.Enabled }},
		{key: "federation.share_user_statistics", flag: "federation-share-user-statistics", usage: "add the counts of accounts (and of those active in the last month and half year), issues and comments to NodeInfo",
			field: func(c *Config) any { return &c.Federation.ShareUserStatistics }},
	}
}

// metricsSettings are the [metrics] keys (Gitea's names).
func metricsSettings() []setting {
	return []setting{
		{key: "metrics.enabled", flag: "metrics", usage: "serve /metrics in the Prometheus exposition format (requests by route, Git traffic, database pools, job queue, Go runtime); off, it answers 404",
			field: func(c *Config) any { return &c.Metrics.Enabled }},
		{key: "metrics.token", flag: "metrics-token", usage: "Bearer token a scrape of /metrics must send (Authorization: Bearer <token>); empty: none",
			field: func(c *Config) any { return &c.Metrics.Token }, docDefault: "empty: none"},
	}
}

// signingSettings are the [repository] keys: the housekeeping after
// pushes, and [repository.signing] (Gitea's names).
func signingSettings() []setting {
	return []setting{
		{key: "repository.housekeeping_delay", flag: "housekeeping-delay", usage: "seconds after a push before Depot tidies the repository's objects (git gc when its largest pack has no bitmap or the packs pushed since weigh a tenth of it; a roll-up of the small packs at 16 packs or about 256 loose objects); the pushes meanwhile share one run; -1 turns it off (cron.git_gc_repos still runs)",
			field: func(c *Config) any { return &c.Repository.HousekeepingDelay }},
		{key: "repository.pack_cache_bytes", flag: "pack-cache-bytes", usage: "disk space in bytes for git's answers to clones over HTTP (fetches of whole histories at ref tips), kept, from the second time the same clone is asked for, under data_dir/cache/git-packs to send the next identical clones from the file instead of packing again; the least recently used go first, an answer over a quarter of it is not kept, one unused for an hour is dropped, and the directory is emptied at start; 0 keeps none",
			field: func(c *Config) any { return &c.Repository.PackCacheBytes }},
		{key: "repository.signing.signing_key", flag: "signing-key", usage: "`default` signs the commits Depot writes itself (contents API writes, merges, first commits) with its own OpenPGP key, made under data_dir at the first start and served at /api/v1/signing-key.gpg; `none` signs nothing",
			field: func(c *Config) any { return &c.Repository.Signing.Key }},
		{key: "repository.signing.signing_name", flag: "signing-name", usage: "name of the signing key's owner when it is made; empty: the site's name",
			field: func(c *Config) any { return &c.Repository.Signing.Name }},
		{key: "repository.signing.signing_email", flag: "signing-email", usage: "e-mail address of the signing key's owner when it is made; empty: noreply@ the site's host",
			field: func(c *Config) any { return &c.Repository.Signing.Email }},
	}
}
