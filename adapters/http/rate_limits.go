package http

import (
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/ratelimit"
	"github.com/depothq/depot/domain/site"
)

// Rate limits (beyond Gitea): each API request spends a token of its
// caller's buckets — the access token's and the account's for a token, the
// account's for a password, the address's for anonymous callers and for
// credentials that failed — and a request that finds a bucket empty is
// answered 429 with Retry-After. Every answer of a limited caller says
// where it stands in X-RateLimit-Limit, -Remaining, -Used and -Reset (Unix
// seconds when the bucket is full again), as GitHub's do. Site
// administrators (and their sudo) are not limited.

// Bounds of the bucket table: past rateSweepAt buckets, full ones (which
// are as good as absent) are forgotten at most once a minute; past
// rateMaxBuckets after that, the table starts over rather than grow.
const (
	rateSweepAt    = 10_000
	rateMaxBuckets = 200_000
)

// rateKey names one bucket.
type rateKey struct {
	kind byte // 't' token, 'u' account, 'a' address
	id   int64
	addr netip.Addr
}

// rateLimiter holds the buckets of one node.
type rateLimiter struct {
	limits site.RateLimits
	now    func() time.Time
	log    *slog.Logger

	mu        sync.Mutex
	buckets   map[rateKey]ratelimit.Bucket
	lastSweep time.Time
}

func newRateLimiter(l site.RateLimits, now func() time.Time, log *slog.Logger) *rateLimiter {
	return &rateLimiter{limits: l, now: now, log: log, buckets: map[rateKey]ratelimit.Bucket{}}
}

// rateCharge is one bucket a request spends from.
type rateCharge struct {
	key   rateKey
	limit ratelimit.Limit
}

// charges are the buckets caller's request spends from.
func (l *rateLimiter) charges(caller auth.Caller, r *http.Request) []rateCharge {
	var out []rateCharge
	add := func(k rateKey, lim ratelimit.Limit) {
		if !lim.Off() {
			out = append(out, rateCharge{k, lim})
		}
	}
	switch {
	case caller.User == nil:
		if addr, ok := clientAddr(r); ok {
			add(rateKey{kind: 'a', addr: addr}, l.limits.PerAddr)
		}
	default:
		// OAuth2 bearer tokens have no token id: their user's bucket counts.
		if caller.Token != nil && caller.Token.ID != 0 {
			add(rateKey{kind: 't', id: caller.Token.ID}, l.limits.PerToken)
		}
		add(rateKey{kind: 'u', id: caller.User.ID}, l.limits.PerUser)
	}
	return out
}

// clientAddr is the request's client address; an IPv6 client is its /64,
// which one host usually holds whole.
func clientAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a := ap.Addr().Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	return a, true
}

// take spends one token of each of the request's buckets, or none when one
// of them is empty. It returns the decision the headers report (the
// refusal, or the bucket with the fewest requests left) and whether the
// caller is limited at all.
func (l *rateLimiter) take(caller auth.Caller, r *http.Request) (ratelimit.Decision, bool) {
	if !l.limits.Enabled || caller.IsAdmin() || caller.Sudoer != nil {
		return ratelimit.Decision{}, false
	}
	charges := l.charges(caller, r)
	if len(charges) == 0 {
		return ratelimit.Decision{}, false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var shown ratelimit.Decision
	next := make([]ratelimit.Bucket, len(charges))
	allowed := true
	for i, c := range charges {
		b, d := ratelimit.Take(c.limit, l.buckets[c.key], now)
		next[i] = b
		switch {
		case !d.Allowed && (allowed || d.RetryAfter > shown.RetryAfter):
			shown, allowed = d, false
		case allowed && (i == 0 || d.Remaining < shown.Remaining):
			shown = d
		}
	}
	if allowed {
		for i, c := range charges {
			l.buckets[c.key] = next[i]
		}
		l.sweep(now)
	}
	return shown, true
}

// sweep forgets full buckets once the table is large, and starts it over
// when even that leaves too many.
func (l *rateLimiter) sweep(now time.Time) {
	if len(l.buckets) < rateSweepAt || now.Sub(l.lastSweep) < time.Minute {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		var lim ratelimit.Limit
		switch k.kind {
		case 't':
			lim = l.limits.PerToken
		case 'u':
			lim = l.limits.PerUser
		default:
			lim = l.limits.PerAddr
		}
		if b.Full(lim, now) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) > rateMaxBuckets {
		l.log.Warn("rate limits: too many callers at once; their buckets start over", "buckets", len(l.buckets))
		clear(l.buckets)
	}
}

// writeRateHeaders reports d on the answer, and Retry-After on a refusal.
func writeRateHeaders(w http.ResponseWriter, d ratelimit.Decision) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(d.Used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(d.Reset.UnixNano())/1e9)), 10))
	if !d.Allowed {
		h.Set("Retry-After", strconv.FormatInt(int64(math.Ceil(d.RetryAfter.Seconds())), 10))
	}
}
