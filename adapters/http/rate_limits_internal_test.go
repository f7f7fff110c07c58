package http

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/ratelimit"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// fakeNow is a clock the test moves.
type fakeNow struct{ t time.Time }

func (f *fakeNow) now() time.Time { return f.t }

func requestFrom(addr string) *http.Request {
	r := httptest.NewRequest("GET", "/api/v1/version", nil)
	r.RemoteAddr = addr
	return r
}

func TestRateLimiterBucketsOverTime(t *testing.T) {
	is := is.New(t)
	clock := &fakeNow{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	l := newRateLimiter(site.RateLimits{Enabled: true,
		PerToken: ratelimit.Limit{Requests: 2, Period: time.Minute},
		PerUser:  ratelimit.Limit{Requests: 3, Period: time.Minute},
		PerAddr:  ratelimit.Limit{Requests: 1, Period: time.Minute},
	}, clock.now, slog.New(slog.DiscardHandler))
	alice := &user.User{ID: 7, Name: "alice"}
	viaToken := auth.Caller{User: alice, Token: &token.AccessToken{ID: 70, UserID: 7}, Method: auth.MethodToken}
	viaPassword := auth.Caller{User: alice, Method: auth.MethodBasic}
	from := requestFrom("192.0.2.1:5000")

	// The token's two requests also spend the account's.
	for want := 1; want >= 0; want-- {
		d, limited := l.take(viaToken, from)
		is.True(limited)
		is.True(d.Allowed)
		is.Equal(d.Limit, 2) // the token's bucket has the fewest left
		is.Equal(d.Remaining, want)
	}
	d, _ := l.take(viaToken, from)
	is.True(!d.Allowed)
	is.Equal(d.RetryAfter, 30*time.Second)
	// The token is empty, the account is not: a password still gets one.
	d, _ = l.take(viaPassword, from)
	is.True(d.Allowed)
	is.Equal(d.Limit, 3)
	is.Equal(d.Remaining, 0)
	d, _ = l.take(viaPassword, from)
	is.True(!d.Allowed)
	is.Equal(d.RetryAfter, 20*time.Second)

	// Twenty seconds give the account one request back; the refusals
	// spent nothing.
	clock.t = clock.t.Add(20 * time.Second)
	d, _ = l.take(viaPassword, from)
	is.True(d.Allowed)
	// Another minute: everything is full again.
	clock.t = clock.t.Add(time.Minute)
	d, _ = l.take(viaToken, from)
	is.True(d.Allowed)
	is.Equal(d.Remaining, 1)
	is.Equal(d.Reset, clock.t.Add(30*time.Second))
}

func TestRateLimiterAddresses(t *testing.T) {
	is := is.New(t)
	clock := &fakeNow{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	l := newRateLimiter(site.RateLimits{Enabled: true, PerAddr: ratelimit.Limit{Requests: 1, Period: time.Hour}},
		clock.now, slog.New(slog.DiscardHandler))
	anonymous := auth.Caller{}

	d, _ := l.take(anonymous, requestFrom("192.0.2.1:5000"))
	is.True(d.Allowed)
	d, _ = l.take(anonymous, requestFrom("192.0.2.1:6000")) // another port, same client
	is.True(!d.Allowed)
	d, _ = l.take(anonymous, requestFrom("192.0.2.2:5000"))
	is.True(d.Allowed)
	// One IPv6 /64 is one client; an IPv4-mapped address is its IPv4 one.
	d, _ = l.take(anonymous, requestFrom("[2001:db8:1:2::1]:5000"))
	is.True(d.Allowed)
	d, _ = l.take(anonymous, requestFrom("[2001:db8:1:2:ffff::9]:5000"))
	is.True(!d.Allowed)
	d, _ = l.take(anonymous, requestFrom("[::ffff:192.0.2.2]:5000"))
	is.True(!d.Allowed)

	// Signed-in callers with no per-account limit are not limited; site
	// administrators never are.
	_, limited := l.take(auth.Caller{User: &user.User{ID: 1}}, requestFrom("192.0.2.1:5000"))
	is.True(!limited)
	l.limits.PerUser = ratelimit.Limit{Requests: 1, Period: time.Hour}
	admin := auth.Caller{User: &user.User{ID: 2, IsAdmin: true}}
	for range 3 {
		_, limited = l.take(admin, requestFrom("192.0.2.1:5000"))
		is.True(!limited)
	}
	// Off: nobody is limited.
	l.limits.Enabled = false
	_, limited = l.take(anonymous, requestFrom("192.0.2.1:5000"))
	is.True(!limited)
}

func TestRateLimiterSweepsFullBuckets(t *testing.T) {
	is := is.New(t)
	clock := &fakeNow{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	l := newRateLimiter(site.RateLimits{Enabled: true, PerAddr: ratelimit.Limit{Requests: 5, Period: time.Second}},
		clock.now, slog.New(slog.DiscardHandler))
	for i := range rateSweepAt + 10 {
		addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), 1)
		d, _ := l.take(auth.Caller{}, requestFrom(addr.String()))
		is.True(d.Allowed)
	}
	// A sweep ran at the bound, but no bucket had filled up yet.
	is.Equal(len(l.buckets), rateSweepAt+10)
	// Past the bound and a minute later, one more request sweeps every
	// bucket that filled up again: only the new one is left.
	clock.t = clock.t.Add(time.Minute)
	d, _ := l.take(auth.Caller{}, requestFrom("192.0.2.9:1"))
	is.True(d.Allowed)
	is.Equal(len(l.buckets), 1)
}
