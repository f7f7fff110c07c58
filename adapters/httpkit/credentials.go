package httpkit

import (
	"net/http"
	"strings"

	"github.com/depothq/depot/app/auth"
)

// HeaderCredentials reads the credentials a request carries in its headers:
// Basic (password or token) or a token in Authorization ("token" or
// "Bearer"), and a one-time code in X-Service-OTP (or Gitea's X-Gitea-OTP).
func HeaderCredentials(r *http.Request) auth.Credentials {
	var c auth.Credentials
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, _ := strings.Cut(h, " ")
		switch strings.ToLower(scheme) {
		case "token", "bearer":
			c.HeaderToken = strings.TrimSpace(rest)
		case "basic":
			c.BasicUser, c.BasicPassword, c.Basic = r.BasicAuth()
		}
	}
	c.OTP = r.Header.Get("X-Service-OTP")
	if c.OTP == "" {
		c.OTP = r.Header.Get("X-Gitea-OTP")
	}
	return c
}
