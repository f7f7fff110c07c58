package site

// ReverseProxyAuth is Gitea's reverse-proxy authentication: a proxy in
// front of Depot signs the user in and names them in a request header.
// Only requests whose connection comes from a trusted proxy address are
// read so; from anywhere else the headers are ignored. It is the fourth
// credential in the order of the core reference's section 5, and it counts
// as Basic authentication for access-token management (rule 7).
type ReverseProxyAuth struct {
	// Enabled turns it on (Gitea's ENABLE_REVERSE_PROXY_AUTHENTICATION
	// and ENABLE_REVERSE_PROXY_AUTHENTICATION_API together).
	Enabled bool
	// AutoRegistration creates an account the header names and no account
	// has (ENABLE_REVERSE_PROXY_AUTO_REGISTRATION).
	AutoRegistration bool
	// UseEmail and UseFullName take the new account's e-mail address and
	// full name from their headers (ENABLE_REVERSE_PROXY_EMAIL,
	// ENABLE_REVERSE_PROXY_FULL_NAME).
	UseEmail, UseFullName bool
	// UserHeader, EmailHeader and FullNameHeader name the headers
	// (REVERSE_PROXY_AUTHENTICATION_USER, _EMAIL, _FULL_NAME).
	UserHeader, EmailHeader, FullNameHeader string
	// TrustedProxies are the addresses (IPs, CIDR prefixes) whose requests
	// are read (REVERSE_PROXY_TRUSTED_PROXIES).
	TrustedProxies []string
}

// DefaultReverseProxyAuth is Gitea's defaults: off, headers X-WEBAUTH-*,
// loopback trusted.
func DefaultReverseProxyAuth() ReverseProxyAuth {
	return ReverseProxyAuth{UserHeader: "X-WEBAUTH-USER", EmailHeader: "X-WEBAUTH-EMAIL",
		FullNameHeader: "X-WEBAUTH-FULLNAME", TrustedProxies: []string{"127.0.0.0/8", "::1/128"}}
}
