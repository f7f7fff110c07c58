package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/depothq/depot/domain/netpolicy"
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
	// Site holds the site policy settings, the [site] table of the file.
	Site SiteConfig `toml:"site"`

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
	// AttachmentAllowedTypes lists the extensions and MIME types an
	// attachment may have, comma-separated; empty means Gitea's list.
	AttachmentAllowedTypes string `toml:"attachment_allowed_types"`
	// AttachmentMaxFiles is how many files one upload may carry; 0 means 5.
	AttachmentMaxFiles int `toml:"attachment_max_files"`
	// CommitCountBudget is how many milliseconds a path-filtered commit
	// listing waits for its total once it has its page.
	CommitCountBudget int `toml:"commit_count_budget"`
	// ConnectionConfig holds the connection limits' keys (config_connections.go).
	ConnectionConfig
}

// DefaultConfig returns the configuration used when no source sets a key.
// BaseURL stays empty here; LoadConfig derives it from Listen.
func DefaultConfig() Config {
	s := site.Defaults()
	return Config{
		Listen:    "127.0.0.1:3000",
		DataDir:   "./data",
		LogLevel:  "info",
		LogFormat: "auto",
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
			AttachmentAllowedTypes:   s.AttachmentAllowedTypes,
			AttachmentMaxFiles:       s.AttachmentMaxFiles,
			CommitCountBudget:        int(s.CommitCountBudget / time.Millisecond),
			ConnectionConfig:         connectionConfig(s.Connections),
		},
	}
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
		WebhookMaxAttempts:       c.Site.WebhookMaxAttempts,
		WebhookTimeout:           time.Duration(c.Site.WebhookTimeout) * time.Second,
		WebhookRetryDelay:        time.Duration(c.Site.WebhookRetryDelay) * time.Second,
		DisableAttachments:       c.Site.DisableAttachments,
		AttachmentMaxBytes:       c.Site.AttachmentMaxBytes,
		AttachmentAllowedTypes:   c.Site.AttachmentAllowedTypes,
		AttachmentMaxFiles:       c.Site.AttachmentMaxFiles,
		CommitCountBudget:        time.Duration(c.Site.CommitCountBudget) * time.Millisecond,
		Connections:              c.Site.limits(),
	}
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

// Validate reports every value that is out of range, joined in one error
// whose lines name the offending keys.
func (c Config) Validate() error {
	logLevels := []string{"debug", "info", "warn", "error"}
	logFormats := []string{"auto", "text", "json"}
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}

	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		bad("listen", "%q is not host:port", c.Listen)
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		bad("base_url", "%q is not an http(s) URL without query or credentials", c.BaseURL)
	}
	if c.DataDir == "" {
		bad("data_dir", "must not be empty")
	}
	if c.DB != "" && !strings.HasPrefix(c.DB, "postgres://") && !strings.HasPrefix(c.DB, "postgresql://") {
		// Never echo the DSN: it usually carries a password.
		bad("db", "want empty (embedded SQLite) or a postgres:// DSN")
	}
	if !slices.Contains(logLevels, c.LogLevel) {
		bad("log_level", "%q is not one of %s", c.LogLevel, strings.Join(logLevels, ", "))
	}
	if !slices.Contains(logFormats, c.LogFormat) {
		bad("log_format", "%q is not one of %s", c.LogFormat, strings.Join(logFormats, ", "))
	}
	if _, err := netpolicy.Parse(c.AllowedHosts); err != nil {
		bad("allowed_hosts", "%v", err)
	}

	s := c.Site
	for _, o := range s.CORSAllowedOrigins {
		if o == "*" {
			continue
		}
		// Browsers send Origin as scheme://host[:port] exactly; anything
		// else in the list would silently never match.
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" ||
			u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			bad("site.cors_allowed_origins", "%q is not \"*\" or scheme://host[:port] with no path or trailing slash", o)
		}
	}
	for _, h := range s.CORSAllowedHeaders {
		if !isHeaderName(h) {
			bad("site.cors_allowed_headers", "%q is not a header name", h)
		}
	}
	if s.MaxBodyBytes <= 0 {
		bad("site.max_body_bytes", "must be positive, got %d", s.MaxBodyBytes)
	}
	if s.AttachmentMaxBytes < 0 {
		bad("site.attachment_max_bytes", "must not be negative, got %d", s.AttachmentMaxBytes)
	}
	if s.CommitCountBudget <= 0 {
		bad("site.commit_count_budget", "must be positive, got %d", s.CommitCountBudget)
	}
	if s.AttachmentMaxFiles < 0 {
		bad("site.attachment_max_files", "must not be negative, got %d", s.AttachmentMaxFiles)
	}
	if s.MaxFileBytes <= 0 {
		bad("site.max_file_bytes", "must be positive, got %d", s.MaxFileBytes)
	}
	if s.MaxChangeFiles <= 0 {
		bad("site.max_change_files", "must be positive, got %d", s.MaxChangeFiles)
	}
	if s.DefaultPagingNum <= 0 {
		bad("site.default_paging_num", "must be positive, got %d", s.DefaultPagingNum)
	}
	if s.MaxResponseItems <= 0 {
		bad("site.max_response_items", "must be positive, got %d", s.MaxResponseItems)
	} else if s.MaxResponseItems < s.DefaultPagingNum {
		bad("site.max_response_items", "%d is less than site.default_paging_num %d", s.MaxResponseItems, s.DefaultPagingNum)
	}
	if s.PasswordMinLength <= 0 {
		bad("site.password_min_length", "must be positive, got %d", s.PasswordMinLength)
	}
	if s.WebhookMaxAttempts <= 0 {
		bad("site.webhook_max_attempts", "must be positive, got %d", s.WebhookMaxAttempts)
	}
	if s.WebhookTimeout <= 0 {
		bad("site.webhook_timeout", "must be positive, got %d", s.WebhookTimeout)
	}
	if s.WebhookRetryDelay <= 0 {
		bad("site.webhook_retry_delay", "must be positive, got %d", s.WebhookRetryDelay)
	}
	s.ConnectionConfig.validate(bad)
	return errors.Join(errs...)
}

// isHeaderName reports whether h is an RFC 9110 token.
func isHeaderName(h string) bool {
	if h == "" {
		return false
	}
	for _, r := range h {
		if r > 0x7e || !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

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
		{key: "site.attachment_allowed_types", flag: "attachment-allowed-types", usage: "extensions and MIME types attachments may have, comma-separated; empty means Gitea's list",
			field: func(c *Config) any { return &c.Site.AttachmentAllowedTypes }},
		{key: "site.attachment_max_files", flag: "attachment-max-files", usage: "files one attachment upload may carry; 0 means 5",
			field: func(c *Config) any { return &c.Site.AttachmentMaxFiles }},
		{key: "site.commit_count_budget", flag: "commit-count-budget", usage: "milliseconds a path-filtered commit listing waits for its total once it has its page; past it the total is counted in the background",
			field: func(c *Config) any { return &c.Site.CommitCountBudget }},
	}, connectionSettings()...)
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

// FlagValues holds what RegisterFlags put on a FlagSet, for LoadConfig to read
// after the set is parsed.
type FlagValues struct {
	config string
	byFlag map[string]*flagValue
}

// flagValue keeps a flag's raw text; LoadConfig parses it into the Config only
// when the flag was set, so that an unset flag never hides the file or env.
type flagValue struct {
	s      setting
	raw    string
	isBool bool
}

func (v *flagValue) String() string {
	if v == nil {
		return ""
	}
	return v.raw
}

// Set checks the value now, so that a bad flag fails at parse time with the
// flag package's usual message.
func (v *flagValue) Set(raw string) error {
	var scratch Config
	if err := setField(v.s.field(&scratch), raw); err != nil {
		return err
	}
	v.raw = raw
	return nil
}

// IsBoolFlag lets boolean keys be given as a bare --flag.
func (v *flagValue) IsBoolFlag() bool { return v.isBool }

// RegisterFlags registers --config and one flag per configuration key on fs.
// Call it before fs.Parse and pass the result to LoadConfig.
func RegisterFlags(fs *flag.FlagSet) *FlagValues {
	fv := &FlagValues{byFlag: map[string]*flagValue{}}
	fs.StringVar(&fv.config, configFlag, "", "TOML configuration `file` (env "+configEnv+")")
	def := DefaultConfig()
	for _, s := range settings() {
		ptr := s.field(&def)
		_, isBool := ptr.(*bool)
		v := &flagValue{s: s, isBool: isBool, raw: formatField(ptr)}
		usage := s.usage
		if s.docDefault != "" {
			// Backquotes in a usage string name the argument, so drop them.
			usage += " (default " + strings.ReplaceAll(s.docDefault, "`", "") + ")"
		}
		fv.byFlag[s.flag] = v
		fs.Var(v, s.flag, usage+" (env "+s.envName()+")")
	}
	return fv
}

// LoadConfig builds the configuration from the defaults, then the TOML file
// named by --config or DEPOT_CONFIG, then DEPOT_* variables read through
// getenv (nil reads none), then the flags of fs that were set on the command
// line. It then derives BaseURL from Listen if no source set it, drops its
// trailing slash, and returns Validate's verdict. Every problem found is
// reported at once. Paths come back absolute (see absPaths).
//
// An empty environment variable counts as unset; to clear a list that the
// file sets, pass the flag with an empty value.
func LoadConfig(fs *flag.FlagSet, fv *FlagValues, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	set := map[string]bool{}
	if fs != nil {
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	cfg := DefaultConfig()

	path := getenv(configEnv)
	if fv != nil && set[configFlag] {
		path = fv.config
	}
	if path != "" {
		if err := decodeFile(path, &cfg); err != nil {
			return Config{}, err
		}
		cfg.File = path
	}

	var errs []error
	for _, s := range settings() {
		raw := getenv(s.envName())
		if raw == "" {
			continue
		}
		if err := setField(s.field(&cfg), raw); err != nil {
			errs = append(errs, fmt.Errorf("config: environment %s: %w", s.envName(), err))
		}
	}

	if fv != nil {
		for _, s := range settings() {
			if !set[s.flag] {
				continue
			}
			if err := setField(s.field(&cfg), fv.byFlag[s.flag].raw); err != nil {
				errs = append(errs, fmt.Errorf("config: flag --%s: %w", s.flag, err))
			}
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}

	cfg.LogLevel = strings.ToLower(strings.TrimSpace(cfg.LogLevel))
	cfg.LogFormat = strings.ToLower(strings.TrimSpace(cfg.LogFormat))
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultBaseURL(cfg.Listen)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")

	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	if err := cfg.absPaths(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// absPaths makes every path setting absolute against the working directory
// of the start. Everything else on disk (the SQLite database, repositories,
// hooks, avatars, attachments, the SSH host key, the site key) is derived
// from the data directory; git runs inside each bare repository, where a
// relative path would name something else (a relative core.hooksPath makes
// git skip every hook without a word).
func (c *Config) absPaths() error {
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return fmt.Errorf("config: data_dir: %w", err)
	}
	c.DataDir = abs
	if c.File != "" {
		if c.File, err = filepath.Abs(c.File); err != nil {
			return fmt.Errorf("config: file: %w", err)
		}
	}
	return nil
}

// decodeFile reads the TOML file at path over cfg, refusing keys it does not
// know so that a typo is not silently ignored.
func decodeFile(path string, cfg *Config) error {
	md, err := toml.DecodeFile(path, cfg)
	if err != nil {
		return fmt.Errorf("config: file %s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return fmt.Errorf("config: file %s: unknown key(s) %s (see docs/configuration.md)", path, strings.Join(keys, ", "))
	}
	return nil
}

// defaultBaseURL is the URL a client on this machine would use: an unspecified
// or wildcard host becomes localhost, since "http://0.0.0.0:3000" is not a
// place a browser can go.
func defaultBaseURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
