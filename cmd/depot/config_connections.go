package main

import (
	"net/netip"
	"slices"
	"time"

	"github.com/depothq/depot/domain/site"
)

// ConnectionConfig is the part of the [site] table that bounds what one
// client can hold of the server: body deadlines, connections per address,
// and the sweep of interrupted pushes. Its keys sit in [site] itself.
type ConnectionConfig struct {
	// BodyIdleTimeout is the longest wait, in seconds, for the next byte of
	// a request body; 0 turns the body deadlines off.
	BodyIdleTimeout int `toml:"body_idle_timeout"`
	// BodyMinRate is the slowest average rate of a request body, in bytes
	// per second, over each body_rate_window of waiting; 0 turns it off.
	BodyMinRate int64 `toml:"body_min_rate"`
	// BodyRateWindow is the window of the minimum rate, in seconds.
	BodyRateWindow int `toml:"body_rate_window"`
	// AnswerIdleTimeout is the longest wait, in seconds, for a client to
	// take the next bytes of a Git answer; 0: as long as it takes.
	AnswerIdleTimeout int `toml:"answer_idle_timeout"`
	// MaxConnsPerAddr is how many connections one client address may hold
	// at once; 0: no bound.
	MaxConnsPerAddr int `toml:"max_conns_per_addr"`
	// MaxConnsExempt are the addresses (IPs, CIDR prefixes) not counted.
	MaxConnsExempt []string `toml:"max_conns_exempt"`
	// IncomingMaxAge is how many seconds an interrupted push's objects are
	// kept after their last change.
	IncomingMaxAge int `toml:"incoming_max_age"`
	// IncomingSweepInterval is how many seconds apart the repositories are
	// swept for them while the server runs; 0: at start-up only.
	IncomingSweepInterval int `toml:"incoming_sweep_interval"`
	// PushGateTimeout is how many seconds a push waits while a dump holds
	// pushes back before it is refused; 0: as long as the dump takes.
	PushGateTimeout int `toml:"push_gate_timeout"`
}

// connectionConfig renders the limits as configuration values.
func connectionConfig(l site.ConnectionLimits) ConnectionConfig {
	return ConnectionConfig{
		BodyIdleTimeout:       int(l.BodyIdleTimeout / time.Second),
		BodyMinRate:           l.BodyMinRate,
		BodyRateWindow:        int(l.BodyRateWindow / time.Second),
		AnswerIdleTimeout:     int(l.AnswerIdleTimeout / time.Second),
		MaxConnsPerAddr:       l.MaxConnsPerAddr,
		MaxConnsExempt:        slices.Clone(l.MaxConnsExempt),
		IncomingMaxAge:        int(l.IncomingMaxAge / time.Second),
		IncomingSweepInterval: int(l.IncomingSweepInterval / time.Second),
		PushGateTimeout:       int(l.PushGateWait / time.Second),
	}
}

// limits returns the connection limits the adapters read.
func (c ConnectionConfig) limits() site.ConnectionLimits {
	return site.ConnectionLimits{
		BodyIdleTimeout:       time.Duration(c.BodyIdleTimeout) * time.Second,
		BodyMinRate:           c.BodyMinRate,
		BodyRateWindow:        time.Duration(c.BodyRateWindow) * time.Second,
		AnswerIdleTimeout:     time.Duration(c.AnswerIdleTimeout) * time.Second,
		MaxConnsPerAddr:       c.MaxConnsPerAddr,
		MaxConnsExempt:        slices.Clone(c.MaxConnsExempt),
		IncomingMaxAge:        time.Duration(c.IncomingMaxAge) * time.Second,
		IncomingSweepInterval: time.Duration(c.IncomingSweepInterval) * time.Second,
		PushGateWait:          time.Duration(c.PushGateTimeout) * time.Second,
	}
}

// validate reports the values out of range through bad.
func (c ConnectionConfig) validate(bad func(key, format string, args ...any)) {
	nonNegative := []struct {
		key string
		v   int64
	}{
		{"site.body_idle_timeout", int64(c.BodyIdleTimeout)},
		{"site.body_min_rate", c.BodyMinRate},
		{"site.answer_idle_timeout", int64(c.AnswerIdleTimeout)},
		{"site.max_conns_per_addr", int64(c.MaxConnsPerAddr)},
		{"site.incoming_max_age", int64(c.IncomingMaxAge)},
		{"site.incoming_sweep_interval", int64(c.IncomingSweepInterval)},
		{"site.push_gate_timeout", int64(c.PushGateTimeout)},
	}
	for _, n := range nonNegative {
		if n.v < 0 {
			bad(n.key, "must not be negative, got %d", n.v)
		}
	}
	for _, e := range c.MaxConnsExempt {
		if _, err := netip.ParsePrefix(e); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(e); err != nil {
			bad("site.max_conns_exempt", "%q is not an IP address or CIDR prefix", e)
		}
	}
	if c.BodyMinRate > 0 && c.BodyRateWindow <= 0 {
		bad("site.body_rate_window", "must be positive when site.body_min_rate is set, got %d", c.BodyRateWindow)
	}
}

// connectionSettings are the keys of ConnectionConfig.
func connectionSettings() []setting {
	return []setting{
		{key: "site.body_idle_timeout", flag: "body-idle-timeout", usage: "seconds a request body (Git pushes and fetches included) may go without a byte, the first one included, before its client is cut off; 0 turns the body deadlines off",
			field: func(c *Config) any { return &c.Site.BodyIdleTimeout }},
		{key: "site.body_min_rate", flag: "body-min-rate", usage: "slowest average rate of a request body, in bytes per second, over each body_rate_window of waiting for it; a slower client is cut off; 0 turns it off",
			field: func(c *Config) any { return &c.Site.BodyMinRate }},
		{key: "site.body_rate_window", flag: "body-rate-window", usage: "seconds of waiting over which body_min_rate is measured",
			field: func(c *Config) any { return &c.Site.BodyRateWindow }},
		{key: "site.answer_idle_timeout", flag: "answer-idle-timeout", usage: "seconds a Git answer over HTTP (a clone's pack) waits for its client to take the next bytes before the client is cut off and its git ends; 0: as long as the client does",
			field: func(c *Config) any { return &c.Site.AnswerIdleTimeout }},
		{key: "site.max_conns_per_addr", flag: "max-conns-per-addr", usage: "connections one client address may hold open at once on the HTTP and on the SSH listener; past it HTTP answers 429 and SSH closes; 0: no bound (behind a reverse proxy)",
			field: func(c *Config) any { return &c.Site.MaxConnsPerAddr }},
		{key: "site.max_conns_exempt", flag: "max-conns-exempt", usage: "client addresses (IPs, CIDR prefixes) max_conns_per_addr does not count, comma-separated: the push hooks call back from loopback",
			field: func(c *Config) any { return &c.Site.MaxConnsExempt }},
		{key: "site.incoming_max_age", flag: "incoming-max-age", usage: "seconds the objects of an interrupted push (objects/tmp_objdir-*) are kept after their last change before a sweep removes them",
			field: func(c *Config) any { return &c.Site.IncomingMaxAge }},
		{key: "site.incoming_sweep_interval", flag: "incoming-sweep-interval", usage: "seconds between sweeps for interrupted pushes' objects while the server runs (one runs at start-up too); 0: at start-up only",
			field: func(c *Config) any { return &c.Site.IncomingSweepInterval }},
		{key: "site.push_gate_timeout", flag: "push-gate-timeout", usage: "seconds a push waits while 'depot dump' holds pushes back for its snapshot before it is refused as busy (git shows the reason, over HTTP and SSH); 0: as long as the dump takes",
			field: func(c *Config) any { return &c.Site.PushGateTimeout }},
	}
}
