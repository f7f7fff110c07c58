package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
)

// TestConnectionLimitsConfig reads the connection limits from the [site]
// table, the environment and flags into the site's settings.
func TestConnectionLimitsConfig(t *testing.T) {
	is := is.New(t)
	path := writeTOML(t, `
[site]
body_idle_timeout = 7
body_min_rate = 512
body_rate_window = 20
answer_idle_timeout = 90
max_conns_per_addr = 3
max_conns_exempt = ["10.0.0.0/8", "::1"]
incoming_max_age = 60
push_gate_timeout = 30
`)
	cfg, err := load(t, []string{"--config", path, "--incoming-sweep-interval", "0"},
		map[string]string{"DEPOT_MAX_CONNS_PER_ADDR": "5"})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().Connections, site.ConnectionLimits{
		BodyIdleTimeout: 7 * time.Second, BodyMinRate: 512, BodyRateWindow: 20 * time.Second,
		AnswerIdleTimeout: 90 * time.Second,
		MaxConnsPerAddr:   5, // the environment beats the file
		MaxConnsExempt:    []string{"10.0.0.0/8", "::1"},
		IncomingMaxAge:    time.Minute, IncomingSweepInterval: 0,
		PushGateWait: 30 * time.Second,
	})
}

// TestConnectionLimitsValidate refuses negative limits and a minimum rate
// without a window to measure it over.
func TestConnectionLimitsValidate(t *testing.T) {
	is := is.New(t)
	_, err := load(t, []string{"--max-conns-per-addr", "-1", "--body-idle-timeout", "-2", "--push-gate-timeout", "-1",
		"--answer-idle-timeout", "-1", "--body-min-rate", "100", "--body-rate-window", "0", "--max-conns-exempt", "127.0.0.1,localhost"}, nil)
	is.True(err != nil)
	for _, key := range []string{"site.max_conns_per_addr", "site.body_idle_timeout", "site.body_rate_window",
		"site.max_conns_exempt", "site.push_gate_timeout", "site.answer_idle_timeout"} {
		is.True(strings.Contains(err.Error(), key)) // names every bad key
	}
	// A rate of 0 needs no window.
	_, err = load(t, []string{"--body-min-rate", "0", "--body-rate-window", "0"}, nil)
	is.NoErr(err)
}
