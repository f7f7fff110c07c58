package main

import (
	"net/netip"
	"slices"

	"github.com/depothq/depot/domain/site"
)

// ServiceConfig is the part of Gitea's [service] table Depot reads: the
// reverse-proxy authentication switches.
type ServiceConfig struct {
	// EnableReverseProxyAuthentication signs in the user a trusted proxy
	// names in a header.
	EnableReverseProxyAuthentication bool `toml:"enable_reverse_proxy_authentication"`
	// EnableReverseProxyAutoRegistration creates the accounts it names.
	EnableReverseProxyAutoRegistration bool `toml:"enable_reverse_proxy_auto_registration"`
	// EnableReverseProxyEmail takes a new account's address from its header.
	EnableReverseProxyEmail bool `toml:"enable_reverse_proxy_email"`
	// EnableReverseProxyFullName takes a new account's full name from its header.
	EnableReverseProxyFullName bool `toml:"enable_reverse_proxy_full_name"`
}

// SecurityConfig is the part of Gitea's [security] table Depot reads: the
// reverse proxy's headers and addresses.
type SecurityConfig struct {
	ReverseProxyAuthenticationUser     string   `toml:"reverse_proxy_authentication_user"`
	ReverseProxyAuthenticationEmail    string   `toml:"reverse_proxy_authentication_email"`
	ReverseProxyAuthenticationFullName string   `toml:"reverse_proxy_authentication_full_name"`
	ReverseProxyTrustedProxies         []string `toml:"reverse_proxy_trusted_proxies"`
}

// reverseProxyConfig renders the settings as configuration values.
func reverseProxyConfig(r site.ReverseProxyAuth) (ServiceConfig, SecurityConfig) {
	return ServiceConfig{EnableReverseProxyAuthentication: r.Enabled, EnableReverseProxyAutoRegistration: r.AutoRegistration,
			EnableReverseProxyEmail: r.UseEmail, EnableReverseProxyFullName: r.UseFullName},
		SecurityConfig{ReverseProxyAuthenticationUser: r.UserHeader, ReverseProxyAuthenticationEmail: r.EmailHeader,
			ReverseProxyAuthenticationFullName: r.FullNameHeader, ReverseProxyTrustedProxies: slices.Clone(r.TrustedProxies)}
}

// reverseProxy returns the settings the HTTP adapter reads.
func (c Config) reverseProxy() site.ReverseProxyAuth {
	return site.ReverseProxyAuth{Enabled: c.Service.EnableReverseProxyAuthentication,
		AutoRegistration: c.Service.EnableReverseProxyAutoRegistration,
		UseEmail:         c.Service.EnableReverseProxyEmail, UseFullName: c.Service.EnableReverseProxyFullName,
		UserHeader: c.Security.ReverseProxyAuthenticationUser, EmailHeader: c.Security.ReverseProxyAuthenticationEmail,
		FullNameHeader: c.Security.ReverseProxyAuthenticationFullName,
		TrustedProxies: slices.Clone(c.Security.ReverseProxyTrustedProxies)}
}

// validate reports the values out of range through bad.
func (c SecurityConfig) validate(enabled bool, bad func(key, format string, args ...any)) {
	for _, e := range c.ReverseProxyTrustedProxies {
		if _, err := netip.ParsePrefix(e); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(e); err != nil {
			bad("security.reverse_proxy_trusted_proxies", "%q is not an IP address or CIDR prefix", e)
		}
	}
	if enabled && c.ReverseProxyAuthenticationUser == "" {
		bad("security.reverse_proxy_authentication_user", "must name a header when service.enable_reverse_proxy_authentication is on")
	}
}

// reverseProxySettings are the keys of ServiceConfig and SecurityConfig.
func reverseProxySettings() []setting {
	return []setting{
		{key: "service.enable_reverse_proxy_authentication", flag: "enable-reverse-proxy-authentication", usage: "sign in the user a trusted reverse proxy names in security.reverse_proxy_authentication_user, on the API (after tokens and Basic; it counts as Basic for token management) and on the sign-in and consent pages; requests from other addresses have the header ignored",
			field: func(c *Config) any { return &c.Service.EnableReverseProxyAuthentication }},
		{key: "service.enable_reverse_proxy_auto_registration", flag: "enable-reverse-proxy-auto-registration", usage: "create the account a trusted reverse proxy names when none has that name",
			field: func(c *Config) any { return &c.Service.EnableReverseProxyAutoRegistration }},
		{key: "service.enable_reverse_proxy_email", flag: "enable-reverse-proxy-email", usage: "take an auto-registered account's e-mail address from security.reverse_proxy_authentication_email (else a random address @localhost, as Gitea makes)",
			field: func(c *Config) any { return &c.Service.EnableReverseProxyEmail }},
		{key: "service.enable_reverse_proxy_full_name", flag: "enable-reverse-proxy-full-name", usage: "take an auto-registered account's full name from security.reverse_proxy_authentication_full_name",
			field: func(c *Config) any { return &c.Service.EnableReverseProxyFullName }},
		{key: "security.reverse_proxy_authentication_user", flag: "reverse-proxy-authentication-user", usage: "header in which a trusted reverse proxy names the signed-in user",
			field: func(c *Config) any { return &c.Security.ReverseProxyAuthenticationUser }},
		{key: "security.reverse_proxy_authentication_email", flag: "reverse-proxy-authentication-email", usage: "header in which a trusted reverse proxy gives the user's e-mail address",
			field: func(c *Config) any { return &c.Security.ReverseProxyAuthenticationEmail }},
		{key: "security.reverse_proxy_authentication_full_name", flag: "reverse-proxy-authentication-full-name", usage: "header in which a trusted reverse proxy gives the user's full name",
			field: func(c *Config) any { return &c.Security.ReverseProxyAuthenticationFullName }},
		{key: "security.reverse_proxy_trusted_proxies", flag: "reverse-proxy-trusted-proxies", usage: "addresses (IPs, CIDR prefixes) of the connections whose reverse-proxy headers are read, comma-separated",
			field: func(c *Config) any { return &c.Security.ReverseProxyTrustedProxies }},
	}
}
