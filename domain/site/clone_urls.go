package site

import (
	"net/url"
	"strings"
)

// HTTPSCloneURL is the HTTP(S) clone address of owner/repo under the base
// URL.
func (s Settings) HTTPSCloneURL(owner, repo string) string {
	return strings.TrimSuffix(s.BaseURL, "/") + "/" + owner + "/" + repo + ".git"
}

// SSHCloneURL is the SSH clone address of owner/repo: on the base URL's
// host, at the built-in SSH server's port when it is not 22
// (ssh://git@host:port/owner/repo.git), in scp form otherwise
// (git@host:owner/repo.git), as Gitea writes them.
func (s Settings) SSHCloneURL(owner, repo string) string {
	host := "localhost"
	if u, err := url.Parse(s.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	path := owner + "/" + repo + ".git"
	if port := listenPort(s.SSHListen); port != "" && port != "22" {
		return "ssh://git@" + host + ":" + port + "/" + path
	}
	return "git@" + host + ":" + path
}

// listenPort is the port of a host:port listen address ("" when it has
// none); the domain reads it without the net package, which does I/O.
func listenPort(addr string) string {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 || strings.HasSuffix(addr[:i], ":") || (strings.Contains(addr[:i], ":") && !strings.HasSuffix(addr[:i], "]")) {
		return "" // no port, or a bare IPv6 address
	}
	return addr[i+1:]
}
