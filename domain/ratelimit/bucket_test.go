package ratelimit_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/ratelimit"
)

func TestTakeSpendsAndRefills(t *testing.T) {
	is := is.New(t)
	l := ratelimit.Limit{Requests: 3, Period: time.Minute} // one token per 20 s
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var b ratelimit.Bucket
	is.True(b.Full(l, t0))

	var d ratelimit.Decision
	for i := range 3 {
		b, d = ratelimit.Take(l, b, t0)
		is.True(d.Allowed)
		is.Equal(d.Limit, 3)
		is.Equal(d.Remaining, 2-i)
		is.Equal(d.Used, i+1)
		is.Equal(d.Reset, t0.Add(time.Duration(i+1)*20*time.Second))
	}
	// Empty: refused, nothing spent, told to wait for one token.
	b, d = ratelimit.Take(l, b, t0)
	is.True(!d.Allowed)
	is.Equal(d.Remaining, 0)
	is.Equal(d.RetryAfter, 20*time.Second)
	b, d = ratelimit.Take(l, b, t0.Add(5*time.Second))
	is.True(!d.Allowed)
	is.Equal(d.RetryAfter, 15*time.Second)

	// 20 s later one token is back.
	b, d = ratelimit.Take(l, b, t0.Add(20*time.Second))
	is.True(d.Allowed)
	is.Equal(d.Remaining, 0)
	// A minute after that the bucket is full again.
	is.True(b.Full(l, t0.Add(80*time.Second)))
	is.True(!b.Full(l, t0.Add(79*time.Second)))
}

func TestTakeClockSteppingBack(t *testing.T) {
	is := is.New(t)
	l := ratelimit.Limit{Requests: 1, Period: time.Hour}
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	b, d := ratelimit.Take(l, ratelimit.Bucket{}, t0)
	is.True(d.Allowed)
	_, d = ratelimit.Take(l, b, t0.Add(-time.Hour)) // no refill from the past
	is.True(!d.Allowed)
	is.Equal(d.RetryAfter, time.Hour)
}

func TestLimitOff(t *testing.T) {
	is := is.New(t)
	is.True(ratelimit.Limit{}.Off())
	is.True(ratelimit.Limit{Requests: 5}.Off())
	is.True(ratelimit.Limit{Period: time.Second}.Off())
	is.True(!ratelimit.Limit{Requests: 5, Period: time.Second}.Off())
}
