package health_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/health"
)

type probeFunc func(context.Context) error

func (f probeFunc) Ping(ctx context.Context) error        { return f(ctx) }
func (f probeFunc) CheckVolume(ctx context.Context) error { return f(ctx) }

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

func TestHealthReport(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	ok := probeFunc(func(context.Context) error { return nil })
	broken := probeFunc(func(context.Context) error { return errors.New("disk gone") })
	stuck := probeFunc(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	cases := []struct {
		name       string
		db, volume probeFunc
		want       health.Status
		wantDB     health.Status
		wantVolume health.Status
	}{
		{"all well", ok, ok, health.Pass, health.Pass, health.Pass},
		{"volume broken", ok, broken, health.Fail, health.Pass, health.Fail},
		{"database broken", broken, ok, health.Fail, health.Fail, health.Pass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := health.NewService(c.db, c.volume, fixedClock{now}).Run(context.Background())
			is.Equal(r.Status, c.want)
			is.Equal(r.Checks[health.CheckDatabase].Status, c.wantDB)
			is.Equal(r.Checks[health.CheckVolume].Status, c.wantVolume)
			is.Equal(r.Checks[health.CheckVolume].Time, now)
			is.Equal(r.Checks[health.CheckVolume].Err != nil, c.wantVolume == health.Fail)
		})
	}

	// A stuck database fails when the caller gives up, not later.
	t.Run("database stuck", func(t *testing.T) {
		is := is.New(t)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		r := health.NewService(stuck, ok, fixedClock{now}).Run(ctx)
		is.Equal(r.Status, health.Fail)
		is.True(errors.Is(r.Checks[health.CheckDatabase].Err, context.DeadlineExceeded))
	})
}
