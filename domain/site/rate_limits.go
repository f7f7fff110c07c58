package site

import (
	"time"

	"github.com/depothq/depot/domain/ratelimit"
)

// RateLimits bound how many API requests one caller makes (beyond Gitea,
// which has none): a token bucket per access token, per signed-in account
// and per address of anonymous callers. Site administrators are not
// limited; Git over HTTP and SSH and the push hooks do not pass through
// them.
type RateLimits struct {
	// Enabled turns the limits on.
	Enabled bool
	// PerToken bounds the requests made with one access token.
	PerToken ratelimit.Limit
	// PerUser bounds the requests of one account, whatever its credential.
	PerUser ratelimit.Limit
	// PerAddr bounds the anonymous requests from one client address.
	PerAddr ratelimit.Limit
}

// DefaultRateLimits are off; when turned on without rates of their own,
// they allow a busy CI system its bursts (1,800 requests a minute per
// token, 3,600 per account) and an anonymous script 300 a minute.
func DefaultRateLimits() RateLimits {
	return RateLimits{
		PerToken: ratelimit.Limit{Requests: 1800, Period: time.Minute},
		PerUser:  ratelimit.Limit{Requests: 3600, Period: time.Minute},
		PerAddr:  ratelimit.Limit{Requests: 300, Period: time.Minute},
	}
}
