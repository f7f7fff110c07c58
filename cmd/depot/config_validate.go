package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/domain/site"
)

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
	if c.MemoryLimit < 0 {
		bad("memory_limit", "must not be negative (0 turns the limit off)")
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
	if s.PackageMaxBytes < 0 {
		bad("site.package_max_bytes", "must not be negative, got %d", s.PackageMaxBytes)
	}
	if s.CommitCountBudget <= 0 {
		bad("site.commit_count_budget", "must be positive, got %d", s.CommitCountBudget)
	}
	if s.PullMaxFiles <= 0 {
		bad("site.pull_max_files", "must be positive, got %d", s.PullMaxFiles)
	}
	if d := c.Repository.HousekeepingDelay; d < -1 {
		bad("repository.housekeeping_delay", "must be -1 (off) or at least 0, got %d", d)
	}
	if n := c.Repository.PackCacheBytes; n < 0 {
		bad("repository.pack_cache_bytes", "must be 0 (off) or more, got %d", n)
	}
	if k := c.Repository.Signing.Key; k != site.SigningNone && k != site.SigningDefault {
		bad("repository.signing.signing_key", "must be %q or %q, got %q", site.SigningNone, site.SigningDefault, k)
	}
	if s.PullDiffMaxLines < 0 {
		bad("site.pull_diff_max_lines", "must not be negative, got %d", s.PullDiffMaxLines)
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
	c.RateLimit.validate(bad)
	c.Cron.validate(bad)
	c.Security.validate(c.Service.EnableReverseProxyAuthentication, bad)
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
