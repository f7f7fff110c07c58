package site

import "time"

// ConnectionLimits bound what one client can hold of the server: how slowly
// it may send a request body, how many connections one address may keep
// open at once, and how long what an interrupted push left on disk is kept.
type ConnectionLimits struct {
	// BodyIdleTimeout is the longest the server waits for the next byte of
	// a request body, the first one included, while it is reading it. A
	// request whose body stops arriving is cut off; 0 turns the wait bound
	// (and the minimum rate) off.
	BodyIdleTimeout time.Duration
	// BodyMinRate is the slowest average rate, in bytes per second, at
	// which a request body may arrive, measured over each BodyRateWindow of
	// time the server spends waiting for it (time the server itself spends
	// busy between reads is not counted against the client); 0 turns it off.
	BodyMinRate int64
	// AnswerIdleTimeout is the longest a Git answer over HTTP (a clone's
	// pack) waits for the client to take its next bytes. A client that
	// stops reading is cut off and the git answering it ends; 0 waits as
	// long as the client does.
	AnswerIdleTimeout time.Duration
	// BodyRateWindow is the stretch of waiting time over which BodyMinRate
	// is measured: a body that sends less than BodyMinRate×BodyRateWindow
	// bytes in one window is cut off at the window's end.
	BodyRateWindow time.Duration
	// MaxConnsPerAddr is how many connections one client address may hold
	// open at once on the HTTP and SSH listeners; the next one is answered
	// 429 (HTTP) or closed (SSH) at once. 0 means no limit, which a server
	// behind a reverse proxy (where every client has the proxy's address)
	// needs.
	MaxConnsPerAddr int
	// MaxConnsExempt lists the client addresses (IPs or CIDR prefixes) the
	// per-address bound does not count: by default the loopback addresses
	// the push hooks call back from, which a reverse proxy on the same
	// machine also connects from.
	MaxConnsExempt []string
	// IncomingMaxAge is how long the object directory of a push that was
	// interrupted (git's objects/tmp_objdir-incoming-*) is kept after its
	// last change before it is removed, at start-up and every
	// IncomingSweepInterval.
	IncomingMaxAge time.Duration
	// IncomingSweepInterval is how often the repositories are swept for
	// such directories while the server runs; 0 sweeps at start-up only.
	IncomingSweepInterval time.Duration
	// PushGateWait is the longest a push waits while `depot dump` holds
	// pushes back (the push gate) before it is refused as busy; 0 waits as
	// long as the dump takes.
	PushGateWait time.Duration
}

// DefaultConnectionLimits are generous for an honest client on a slow link
// (a push at 1 KiB/s still completes) and cut a stalled one off within a
// minute; a push waits for a dump's snapshot up to two minutes.
func DefaultConnectionLimits() ConnectionLimits {
	return ConnectionLimits{
		BodyIdleTimeout:       30 * time.Second,
		BodyMinRate:           1024,
		BodyRateWindow:        30 * time.Second,
		AnswerIdleTimeout:     time.Minute,
		MaxConnsPerAddr:       64,
		MaxConnsExempt:        []string{"127.0.0.1", "::1"},
		IncomingMaxAge:        time.Hour,
		IncomingSweepInterval: 15 * time.Minute,
		PushGateWait:          2 * time.Minute,
	}
}
