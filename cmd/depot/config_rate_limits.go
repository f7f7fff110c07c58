package main

import (
	"time"

	"github.com/depothq/depot/domain/ratelimit"
	"github.com/depothq/depot/domain/site"
)

// RateLimitConfig is the [rate_limit] table: the API's request limits per
// token, per account and per anonymous address, as requests per minute.
type RateLimitConfig struct {
	// Enabled turns the limits on.
	Enabled bool `toml:"enabled"`
	// PerToken is how many requests a minute one access token may make.
	PerToken int `toml:"per_token"`
	// PerUser is how many requests a minute one account may make.
	PerUser int `toml:"per_user"`
	// PerAddr is how many anonymous requests a minute one address may make.
	PerAddr int `toml:"per_addr"`
}

// rateLimitConfig renders the limits as configuration values.
func rateLimitConfig(l site.RateLimits) RateLimitConfig {
	perMinute := func(l ratelimit.Limit) int {
		if l.Off() {
			return 0
		}
		return int(float64(l.Requests) * float64(time.Minute) / float64(l.Period))
	}
	return RateLimitConfig{Enabled: l.Enabled, PerToken: perMinute(l.PerToken), PerUser: perMinute(l.PerUser),
		PerAddr: perMinute(l.PerAddr)}
}

// limits returns the rate limits the HTTP adapter applies.
func (c RateLimitConfig) limits() site.RateLimits {
	perMinute := func(n int) ratelimit.Limit { return ratelimit.Limit{Requests: n, Period: time.Minute} }
	return site.RateLimits{Enabled: c.Enabled, PerToken: perMinute(c.PerToken), PerUser: perMinute(c.PerUser),
		PerAddr: perMinute(c.PerAddr)}
}

// validate reports the values out of range through bad.
func (c RateLimitConfig) validate(bad func(key, format string, args ...any)) {
	for _, n := range []struct {
		key string
		v   int
	}{{"rate_limit.per_token", c.PerToken}, {"rate_limit.per_user", c.PerUser}, {"rate_limit.per_addr", c.PerAddr}} {
		if n.v < 0 {
			bad(n.key, "must not be negative, got %d", n.v)
		}
	}
}

// rateLimitSettings are the [rate_limit] keys.
func rateLimitSettings() []setting {
	return []setting{
		{key: "rate_limit.enabled", flag: "rate-limit", usage: "limit API requests per token, per account and per anonymous address (token buckets; X-RateLimit-* headers on every answer, 429 with Retry-After past them); site admins are not limited, Git traffic is not counted",
			field: func(c *Config) any { return &c.RateLimit.Enabled }},
		{key: "rate_limit.per_token", flag: "rate-limit-per-token", usage: "API requests a minute one access token may make, all at once if need be; 0: no bound",
			field: func(c *Config) any { return &c.RateLimit.PerToken }},
		{key: "rate_limit.per_user", flag: "rate-limit-per-user", usage: "API requests a minute one account may make, whatever its credentials; 0: no bound",
			field: func(c *Config) any { return &c.RateLimit.PerUser }},
		{key: "rate_limit.per_addr", flag: "rate-limit-per-addr", usage: "anonymous API requests a minute one client address may make; 0: no bound",
			field: func(c *Config) any { return &c.RateLimit.PerAddr }},
	}
}
