package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/ratelimit"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// TestRateLimitsOverHTTP spends the buckets of an anonymous address, an
// account and a token through the real server: the X-RateLimit-* headers
// count down, the request past them is a 429 with Retry-After, and the
// site administrator is never limited.
func TestRateLimitsOverHTTP(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.RateLimits = site.RateLimits{Enabled: true,
			PerToken: ratelimit.Limit{Requests: 2, Period: time.Hour},
			PerUser:  ratelimit.Limit{Requests: 8, Period: time.Hour},
			PerAddr:  ratelimit.Limit{Requests: 3, Period: time.Hour},
		}
	}))
	// The accounts are made by the administrator, who is not limited.
	newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	tok := srv.CreateToken("alice", userPassword, "read:user") // Basic: alice's first request

	// Anonymous: three from this address, then 429.
	for want := 2; want >= 0; want-- {
		r := srv.Do("GET", "/version", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("X-RateLimit-Limit"), "3")
		is.Equal(r.Header.Get("X-RateLimit-Remaining"), strconv.Itoa(want))
		is.Equal(r.Header.Get("X-RateLimit-Used"), strconv.Itoa(3-want))
		reset, err := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
		is.NoErr(err)
		is.True(reset > time.Now().Unix() && reset <= time.Now().Add(time.Hour).Unix()+1)
	}
	refused := srv.Do("GET", "/version", nil)
	is.Equal(refused.Status, http.StatusTooManyRequests)
	retry, err := strconv.Atoi(refused.Header.Get("Retry-After"))
	is.NoErr(err)
	is.True(retry > 1000 && retry <= 1200) // one request in 20 minutes
	is.True(strings.Contains(refused.Message(), "rate limit"))
	// Failed credentials count as anonymous: still refused.
	is.Equal(srv.Do("GET", "/user", nil, "Authorization", "token wrong").Status, http.StatusTooManyRequests)

	// The token: two requests, then 429; alice's password still has what
	// is left of her account's eight.
	auth := []string{"Authorization", "token " + tok}
	for range 2 {
		r := srv.Do("GET", "/user", nil, auth...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("X-RateLimit-Limit"), "2")
	}
	is.Equal(srv.Do("GET", "/user", nil, auth...).Status, http.StatusTooManyRequests)
	r := srv.Do("GET", "/user", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("X-RateLimit-Limit"), "8")
	left, err := strconv.Atoi(r.Header.Get("X-RateLimit-Remaining"))
	is.NoErr(err)
	is.True(left >= 1 && left <= 5) // the token's two and this one at least
	for range left {
		is.Equal(srv.Do("GET", "/user", nil, basicAs("alice")...).Status, http.StatusOK)
	}
	is.Equal(srv.Do("GET", "/user", nil, basicAs("alice")...).Status, http.StatusTooManyRequests)

	// The administrator: no limit, no headers.
	for range 5 {
		r := srv.Do("GET", "/user", nil, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("X-RateLimit-Limit"), "")
	}
}

// TestRateLimitsOffByDefault checks the site's default: no limit, no
// headers.
func TestRateLimitsOffByDefault(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	for range 5 {
		r := srv.Do("GET", "/version", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("X-RateLimit-Limit"), "")
	}
}
