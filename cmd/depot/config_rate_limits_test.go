package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/ratelimit"
	"github.com/depothq/depot/domain/site"
)

// TestRateLimitsConfig reads the [rate_limit] table, the environment and
// flags into the site's settings, as requests per minute.
func TestRateLimitsConfig(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().RateLimits, site.DefaultRateLimits()) // off, with rates ready

	path := writeTOML(t, `
[rate_limit]
enabled = true
per_token = 100
per_user = 200
`)
	cfg, err = load(t, []string{"--config", path, "--rate-limit-per-addr", "0"},
		map[string]string{"DEPOT_RATE_LIMIT_PER_USER": "300"})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().RateLimits, site.RateLimits{Enabled: true,
		PerToken: ratelimit.Limit{Requests: 100, Period: time.Minute},
		PerUser:  ratelimit.Limit{Requests: 300, Period: time.Minute}, // the environment beats the file
		PerAddr:  ratelimit.Limit{Requests: 0, Period: time.Minute},   // off
	})
	is.True(cfg.SiteSettings().RateLimits.PerAddr.Off())

	_, err = load(t, []string{"--rate-limit-per-token", "-1", "--rate-limit-per-addr", "-5"}, nil)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "rate_limit.per_token"))
	is.True(strings.Contains(err.Error(), "rate_limit.per_addr"))
}
