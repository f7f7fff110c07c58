package cron

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

// cronFixture is the service over a real (SQLite) job table and cron_tasks
// table, with a fake clock and two tasks whose work counts its runs; no job
// runs unless the test claims it.
type cronFixture struct {
	db     *sqlstore.DB
	stores ports.Stores
	clock  *fakeClock
	runs   map[string][]time.Time
	// fail makes a task's work fail with this error.
	fail map[string]error
}

func newCronFixture(t *testing.T) *cronFixture {
	t.Helper()
	db, err := sqlstore.Open(t.Context(), sqlstore.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The store stamps a job queued without a time with the wall clock: the
	// fake clock starts ahead of it, at the next midnight (UTC), so that the
	// hourly task comes at 01:00, well before the daily one at 03:30.
	now := time.Now().UTC().Add(24 * time.Hour).Truncate(24 * time.Hour)
	return &cronFixture{db: db, stores: db.Stores(), clock: &fakeClock{now: now}, runs: map[string][]time.Time{},
		fail: map[string]error{}}
}

// service builds the service with these settings over the fixture's tasks
// "hourly" and "daily".
func (f *cronFixture) service(t *testing.T, cfg map[string]site.CronTask) *Service {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	work := map[string]Work{}
	for _, name := range []string{"hourly", "daily"} {
		work[name] = func(_ context.Context, now time.Time) error {
			f.runs[name] = append(f.runs[name], now)
			return f.fail[name]
		}
	}
	s, err := newService(cfg, work, f.stores, f.db.Transactor(), jobs.NewRunner(f.stores, f.clock, log), f.clock, log)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func defaultFixtureCron() map[string]site.CronTask {
	return map[string]site.CronTask{
		"hourly": {Enabled: true, Schedule: "@every 1h"},
		"daily":  {Enabled: true, Schedule: "30 3 * * *"},
	}
}

// claim takes the jobs due at `at`, returning them unrun.
func (f *cronFixture) claim(t *testing.T, at time.Time) []*ports.Job {
	t.Helper()
	list, err := f.stores.Jobs.Claim(t.Context(), "test", []string{KindRun}, at, time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// work runs the claimed jobs through the service's handler and completes them.
func (f *cronFixture) work(t *testing.T, s *Service, list []*ports.Job) {
	t.Helper()
	for _, j := range list {
		if err := s.runJob(t.Context(), j); err != nil {
			t.Fatal(err)
		}
		if err := f.stores.Jobs.Complete(t.Context(), j.ID, "test"); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *cronFixture) record(t *testing.T, name string) *ports.CronTaskRun {
	t.Helper()
	recs, err := records(t.Context(), f.stores)
	if err != nil {
		t.Fatal(err)
	}
	return recs[name]
}

func TestCronStartSchedulesEachTaskOnce(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	s := f.service(t, defaultFixtureCron())
	start := f.clock.now
	is.NoErr(s.Start(t.Context()))
	is.NoErr(s.Start(t.Context())) // a second server (or a restart) doubles nothing

	is.True(f.record(t, "hourly").Next.Equal(start.Add(time.Hour)))
	daily := time.Date(start.Year(), start.Month(), start.Day(), 3, 30, 0, 0, time.UTC)
	if !daily.After(start) {
		daily = daily.AddDate(0, 0, 1)
	}
	is.True(f.record(t, "daily").Next.Equal(daily))
	is.Equal(len(f.claim(t, start.Add(59*time.Minute))), 0) // nothing due before the first instant
	is.Equal(len(f.claim(t, start.Add(time.Hour))), 1)      // the hourly tick, once

	list, total, err := s.List(t.Context(), ports.ListOptions{Page: 1, Limit: 1})
	is.NoErr(err)
	is.Equal(total, int64(2))
	is.Equal(len(list), 1)
	is.Equal(list[0].Name, "daily") // by name
	is.Equal(list[0].Schedule, "30 3 * * *")
	is.True(list[0].Next.Equal(daily))
	is.Equal(list[0].ExecTimes, int64(0))
	list, _, err = s.List(t.Context(), ports.ListOptions{Page: 2, Limit: 1})
	is.NoErr(err)
	is.Equal(list[0].Name, "hourly")
	list, _, err = s.List(t.Context(), ports.ListOptions{Page: 3, Limit: 1})
	is.NoErr(err)
	is.Equal(len(list), 0)
}

func TestCronTickRunsRecordsAndSchedulesTheNext(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	cfg := defaultFixtureCron()
	cfg["daily"] = site.CronTask{Schedule: "30 3 * * *"} // off, so that only hourly ticks
	s := f.service(t, cfg)
	start := f.clock.now
	is.NoErr(s.Start(t.Context()))

	due := start.Add(time.Hour)
	f.clock.now = due.Add(10 * time.Second) // the tick runs a little late
	ticks := f.claim(t, f.clock.now)
	is.Equal(len(ticks), 1)
	f.work(t, s, ticks)
	is.Equal(f.runs["hourly"], []time.Time{f.clock.now})
	rec := f.record(t, "hourly")
	is.Equal(rec.ExecTimes, int64(1))
	is.True(rec.Prev.Equal(f.clock.now))
	next := f.clock.now.Add(time.Hour)
	is.True(rec.Next.Equal(next))

	// The same tick run again (its worker died before completing it) is
	// superseded: no work, no count.
	is.NoErr(s.runJob(t.Context(), ticks[0]))
	is.Equal(len(f.runs["hourly"]), 1)
	is.Equal(f.record(t, "hourly").ExecTimes, int64(1))

	// The next tick is queued for the next instant, and runs then.
	is.Equal(len(f.claim(t, next.Add(-time.Second))), 0)
	f.clock.now = next
	f.work(t, s, f.claim(t, next))
	is.Equal(len(f.runs["hourly"]), 2)
	is.Equal(f.record(t, "hourly").ExecTimes, int64(2))
	is.Equal(len(f.runs["daily"]), 0)
}

func TestCronOverdueTaskRunsAtStartAndSoonerScheduleWins(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	start := f.clock.now
	// The server was down past the hourly instant: the instant stays and is
	// due at once, and it runs once, not once per missed hour.
	is.NoErr(f.stores.CronTasks.SetNext(t.Context(), "hourly", start.Add(-3*time.Hour)))
	// The daily task was scheduled far away; its schedule now fires sooner.
	is.NoErr(f.stores.CronTasks.SetNext(t.Context(), "daily", start.Add(72*time.Hour)))
	s := f.service(t, defaultFixtureCron())
	is.NoErr(s.Start(t.Context()))

	is.True(f.record(t, "hourly").Next.Equal(start.Add(-3 * time.Hour)))
	is.True(f.record(t, "daily").Next.Before(start.Add(25 * time.Hour)))
	f.work(t, s, f.claim(t, start))
	is.Equal(len(f.runs["hourly"]), 1)
	is.True(f.record(t, "hourly").Next.Equal(start.Add(time.Hour)))
}

func TestCronDisabledTaskIsNotScheduledButRunsWhenAsked(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	start := f.clock.now
	s := f.service(t, defaultFixtureCron())
	is.NoErr(s.Start(t.Context()))

	// Restarted with the hourly task off: its queued tick is superseded.
	cfg := defaultFixtureCron()
	cfg["hourly"] = site.CronTask{Enabled: false, Schedule: "@every 1h"}
	s = f.service(t, cfg)
	is.NoErr(s.Start(t.Context()))
	is.True(f.record(t, "hourly").Next.IsZero())
	f.clock.now = start.Add(time.Hour)
	f.work(t, s, f.claim(t, f.clock.now))
	is.Equal(len(f.runs["hourly"]), 0)

	// Asked for, it runs, counts, and stays unscheduled.
	is.NoErr(s.Run(t.Context(), "hourly"))
	is.NoErr(s.Run(t.Context(), "hourly")) // one run waiting is enough
	f.work(t, s, f.claim(t, f.clock.now))
	is.Equal(len(f.runs["hourly"]), 1)
	rec := f.record(t, "hourly")
	is.Equal(rec.ExecTimes, int64(1))
	is.True(rec.Prev.Equal(f.clock.now))
	is.True(rec.Next.IsZero())
	list, _, err := s.List(t.Context(), ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(list[1].Name, "hourly")
	is.True(list[1].Next.IsZero())
	is.Equal(list[1].ExecTimes, int64(1))

	err = s.Run(t.Context(), "nope")
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestCronRunAskedForKeepsTheSchedule(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	start := f.clock.now
	cfg := defaultFixtureCron()
	cfg["daily"] = site.CronTask{Enabled: true, Schedule: "30 3 * * *", RunAtStart: true}
	s := f.service(t, cfg)
	is.NoErr(s.Start(t.Context()))
	next := f.record(t, "daily").Next

	f.work(t, s, f.claim(t, start)) // the run at start
	is.Equal(len(f.runs["daily"]), 1)
	rec := f.record(t, "daily")
	is.Equal(rec.ExecTimes, int64(1))
	is.True(rec.Next.Equal(next)) // the scheduled instant still comes
	is.Equal(len(f.runs["hourly"]), 0)
}

func TestCronBadScheduleIsAStartUpErrorNamingTheKey(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := defaultFixtureCron()
	cfg["daily"] = site.CronTask{Enabled: true, Schedule: "every day at three"}
	work := map[string]Work{"hourly": nil, "daily": nil}
	_, err := newService(cfg, work, f.stores, f.db.Transactor(), jobs.NewRunner(f.stores, f.clock, log), f.clock, log)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "cron.daily.schedule"))
	is.True(!strings.Contains(err.Error(), "cron.hourly"))

	_, err = newService(map[string]site.CronTask{}, map[string]Work{"hourly": nil}, f.stores, f.db.Transactor(),
		jobs.NewRunner(f.stores, f.clock, log), f.clock, log)
	is.True(err != nil && strings.Contains(err.Error(), "cron.hourly"))
}

func TestCronFailedWorkStillCountsAndKeepsTheSchedule(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	cfg := defaultFixtureCron()
	cfg["daily"] = site.CronTask{Schedule: "30 3 * * *"}
	s := f.service(t, cfg)
	is.NoErr(s.Start(t.Context()))
	f.fail["hourly"] = errors.New("disk full")

	f.clock.now = f.clock.now.Add(time.Hour)
	f.work(t, s, f.claim(t, f.clock.now)) // the handler reports no error: nothing to retry
	rec := f.record(t, "hourly")
	is.Equal(rec.ExecTimes, int64(1))
	is.True(rec.Next.Equal(f.clock.now.Add(time.Hour))) // the next instant tries again
	is.Equal(len(f.claim(t, f.clock.now.Add(time.Hour))), 1)
}

func TestCronScheduleMendsABrokenChainWithoutRunningAtStartAgain(t *testing.T) {
	is := is.New(t)
	f := newCronFixture(t)
	cfg := defaultFixtureCron()
	cfg["daily"] = site.CronTask{Schedule: "30 3 * * *", RunAtStart: true}
	s := f.service(t, cfg)
	is.NoErr(s.Start(t.Context()))
	due := f.clock.now.Add(time.Hour)
	// The hourly tick failed for good: gone from the queue.
	for _, j := range f.claim(t, due) {
		if strings.Contains(string(j.Payload), `"hourly"`) {
			is.NoErr(f.stores.Jobs.Fail(t.Context(), j.ID, "test", "gave up"))
		} else {
			is.NoErr(f.stores.Jobs.Complete(t.Context(), j.ID, "test"))
		}
	}
	is.Equal(len(f.claim(t, due)), 0)

	is.NoErr(s.schedule(t.Context(), false))
	list := f.claim(t, due)
	is.Equal(len(list), 1) // the hourly tick again; no second run at start
	f.clock.now = due
	f.work(t, s, list)
	is.Equal(len(f.runs["hourly"]), 1)
	is.Equal(len(f.runs["daily"]), 0)
}
