// Package ratelimit is the arithmetic of Depot's request limits: token
// buckets that hold a limit's whole allowance, lose one token per request
// and fill again at the limit's rate. It keeps no state and reads no clock:
// callers pass the bucket and the time in and store what comes out.
package ratelimit

import (
	"math"
	"time"
)

// Limit allows Requests per Period, all of them at once if need be (the
// bucket's size is Requests). A Limit with no requests or no period is off.
type Limit struct {
	Requests int
	Period   time.Duration
}

// Off reports whether the limit limits nothing.
func (l Limit) Off() bool { return l.Requests <= 0 || l.Period <= 0 }

// perSecond is the refill rate.
func (l Limit) perSecond() float64 { return float64(l.Requests) / l.Period.Seconds() }

// Bucket is one caller's state under a limit. Its zero value is a full
// bucket.
type Bucket struct {
	// Spent is how many tokens were missing at At.
	Spent float64
	At    time.Time
}

// Decision is the answer to one request, with what the X-RateLimit-*
// headers say.
type Decision struct {
	Allowed bool
	// Limit is the bucket's size.
	Limit int
	// Remaining is how many requests may follow at once.
	Remaining int
	// Used is how many of the bucket's tokens are spent.
	Used int
	// Reset is when the bucket is full again.
	Reset time.Time
	// RetryAfter is how long a refused caller should wait for one token;
	// zero when allowed.
	RetryAfter time.Duration
}

// Full reports whether b holds its whole allowance at now, so that
// forgetting it changes nothing.
func (b Bucket) Full(l Limit, now time.Time) bool { return b.spentAt(l, now) == 0 }

// spentAt is how many tokens are missing at now, after refilling.
func (b Bucket) spentAt(l Limit, now time.Time) float64 {
	if b.At.IsZero() || b.Spent <= 0 {
		return 0
	}
	elapsed := now.Sub(b.At).Seconds()
	if elapsed < 0 {
		elapsed = 0 // a clock that stepped back refills nothing
	}
	return math.Max(0, b.Spent-elapsed*l.perSecond())
}

// Take spends one token of b for a request at now. A refused request
// spends nothing.
func Take(l Limit, b Bucket, now time.Time) (Bucket, Decision) {
	spent := b.spentAt(l, now)
	d := Decision{Limit: l.Requests}
	if spent+1 <= float64(l.Requests) {
		spent++
		d.Allowed = true
	} else {
		wait := (spent + 1 - float64(l.Requests)) / l.perSecond()
		d.RetryAfter = time.Duration(math.Ceil(wait * float64(time.Second)))
	}
	d.Used = int(math.Ceil(spent))
	d.Remaining = l.Requests - d.Used
	d.Reset = now.Add(time.Duration(math.Ceil(spent / l.perSecond() * float64(time.Second))))
	return Bucket{Spent: spent, At: now}, d
}
