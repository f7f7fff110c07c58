package mirrors

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

type fixedClock struct{ now time.Time }

func (c *fixedClock) Now() time.Time { return c.now }

// scheduleFixture is a service over a real (SQLite) job table, whose dedup
// and queue rules the schedule relies on, with one pull mirror and one push
// mirror; no job runs.
type scheduleFixture struct {
	s      *Service
	stores ports.Stores
	clock  *fixedClock
	repoID int64
	pushID int64
}

func newScheduleFixture(t *testing.T) *scheduleFixture {
	t.Helper()
	is := is.New(t)
	ctx := t.Context()
	db, err := sqlstore.Open(ctx, sqlstore.Config{DataDir: t.TempDir()})
	is.NoErr(err)
	t.Cleanup(func() { _ = db.Close() })
	is.NoErr(db.Migrate(ctx))
	stores := db.Stores()
	u := &user.User{Name: "owner", LowerName: "owner", Visibility: user.VisibilityPublic, IsActive: true}
	is.NoErr(stores.Users.Create(ctx, u))
	r := &repository.Repository{Owner: repository.Owner{ID: u.ID, Name: u.Name}, Name: "m", LowerName: "m",
		IsMirror: true, DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits()}
	is.NoErr(stores.Repos.Create(ctx, r))
	// The store stamps a job queued without a time with the wall clock, so
	// the fixture's clock runs a minute ahead of it: such jobs are due at
	// the fixture's now (a fixed date left them in the future once the
	// calendar passed it).
	clock := &fixedClock{now: time.Now().UTC().Add(time.Minute).Truncate(time.Second)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f := &scheduleFixture{stores: stores, clock: clock, repoID: r.ID,
		s: &Service{stores: stores, tx: db.Transactor(), clock: clock, jobs: jobs.NewRunner(stores, clock, log), log: log}}
	is.NoErr(stores.Mirrors.Create(ctx, &ports.Mirror{RepoID: r.ID, RemoteURL: "https://example.com/a.git",
		Interval: time.Hour, NextUpdate: clock.now}))
	pm := &ports.PushMirror{RepoID: r.ID, RemoteName: "remote_mirror_a", RemoteAddress: "https://example.com/b.git",
		Interval: time.Hour, NextUpdate: clock.now}
	is.NoErr(stores.PushMirrors.Create(ctx, pm))
	f.pushID = pm.ID
	return f
}

// claim takes (and completes) every job of kind due by at, and returns
// what each was queued for.
func (f *scheduleFixture) claim(t *testing.T, kind string, at time.Time) []syncPayload {
	t.Helper()
	list, err := f.stores.Jobs.Claim(t.Context(), "test", []string{kind}, at, time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]syncPayload, len(list))
	for i, j := range list {
		p, err := decodePayload(j)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = p
		if err := f.stores.Jobs.Complete(t.Context(), j.ID, "test"); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestMirrorScheduleTickRenewsItself(t *testing.T) {
	is := is.New(t)
	f := newScheduleFixture(t)
	ctx := t.Context()
	due := f.clock.now
	f.clock.now = due.Add(30 * time.Second) // the tick runs a little late

	is.NoErr(f.s.tickPull(ctx, syncPayload{ID: f.repoID, Due: due.Unix()}))
	m, err := f.stores.Mirrors.Get(ctx, f.repoID)
	is.NoErr(err)
	next := f.clock.now.Add(time.Hour).Truncate(time.Second)
	is.True(m.NextUpdate.Equal(next)) // one interval after the tick

	// A tick run again (its worker died before completing it) is superseded.
	is.NoErr(f.s.tickPull(ctx, syncPayload{ID: f.repoID, Due: due.Unix()}))
	// Due now: the sync, once (the repeated tick queued nothing more).
	is.Equal(f.claim(t, KindPullSync, f.clock.now), []syncPayload{{ID: f.repoID}})
	// Due at the next instant: the next tick.
	is.Equal(f.claim(t, KindPullSync, next), []syncPayload{{ID: f.repoID, Due: next.Unix()}})
}

func TestMirrorScheduleFollowsTheInterval(t *testing.T) {
	is := is.New(t)
	f := newScheduleFixture(t)
	ctx := t.Context()
	old := f.clock.now

	// An edit to 10 minutes: the next sync is 10 minutes away, and the tick
	// queued for the old instant does nothing when it comes.
	is.NoErr(f.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return f.s.reschedulePull(ctx, tx, f.repoID, 10*time.Minute)
	}))
	next := old.Add(10 * time.Minute)
	m, err := f.stores.Mirrors.Get(ctx, f.repoID)
	is.NoErr(err)
	is.Equal(m.Interval, 10*time.Minute)
	is.True(m.NextUpdate.Equal(next))
	is.NoErr(f.s.tickPull(ctx, syncPayload{ID: f.repoID, Due: old.Unix()}))
	is.Equal(len(f.claim(t, KindPullSync, old)), 0)
	is.Equal(f.claim(t, KindPullSync, next), []syncPayload{{ID: f.repoID, Due: next.Unix()}})

	// 0 turns the schedule off: no next instant, no tick.
	is.NoErr(f.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return f.s.reschedulePull(ctx, tx, f.repoID, 0)
	}))
	m, err = f.stores.Mirrors.Get(ctx, f.repoID)
	is.NoErr(err)
	is.True(m.NextUpdate.IsZero())
	is.NoErr(f.s.tickPull(ctx, syncPayload{ID: f.repoID, Due: next.Unix()}))
	is.Equal(len(f.claim(t, KindPullSync, next.Add(24*time.Hour))), 0)
}

func TestMirrorWorkWhileOneRunsWaitsBehindIt(t *testing.T) {
	is := is.New(t)
	f := newScheduleFixture(t)
	ctx := t.Context()
	enqueue := func() {
		is.NoErr(f.s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			return enqueuePush(ctx, tx, f.pushID)
		}))
	}
	enqueue()
	enqueue() // one waits already: nothing more
	running, err := f.stores.Jobs.Claim(ctx, "test", []string{KindPushSync}, f.clock.now, time.Minute, 10)
	is.NoErr(err)
	is.Equal(len(running), 1)

	// While it runs, a request queues one more, which waits for it (same
	// queue); more requests add nothing.
	enqueue()
	enqueue()
	is.Equal(len(f.claim(t, KindPushSync, f.clock.now)), 0)
	is.NoErr(f.stores.Jobs.Complete(ctx, running[0].ID, "test"))
	is.Equal(f.claim(t, KindPushSync, f.clock.now), []syncPayload{{ID: f.pushID}})
}

func TestMirrorPushTickRenewsItself(t *testing.T) {
	is := is.New(t)
	f := newScheduleFixture(t)
	ctx := t.Context()
	due := f.clock.now
	is.NoErr(f.s.tickPush(ctx, syncPayload{ID: f.pushID, Due: due.Unix() - 1})) // superseded
	is.Equal(len(f.claim(t, KindPushSync, due)), 0)
	is.NoErr(f.s.tickPush(ctx, syncPayload{ID: f.pushID, Due: due.Unix()}))
	next := due.Add(time.Hour)
	is.Equal(f.claim(t, KindPushSync, due), []syncPayload{{ID: f.pushID}})
	is.Equal(f.claim(t, KindPushSync, next), []syncPayload{{ID: f.pushID, Due: next.Unix()}})
}

func TestMirrorRequeueOverdueQueuesLostTicksOnce(t *testing.T) {
	is := is.New(t)
	f := newScheduleFixture(t)
	ctx := t.Context()
	due := f.clock.now // the fixture's mirrors are due now, with no tick queued
	f.clock.now = due.Add(time.Minute)

	done, err := f.s.RequeueOverdue(ctx, 50)
	is.NoErr(err)
	is.Equal(done, Overdue{Pulls: 1, Pushes: 1})
	_, err = f.s.RequeueOverdue(ctx, 50) // the ticks queued above keep their keys
	is.NoErr(err)
	is.Equal(f.claim(t, KindPullSync, f.clock.now), []syncPayload{{ID: f.repoID, Due: due.Unix()}})
	is.Equal(f.claim(t, KindPushSync, f.clock.now), []syncPayload{{ID: f.pushID, Due: due.Unix()}})

	// Once a tick has moved the schedule on, nothing is overdue.
	is.NoErr(f.s.tickPull(ctx, syncPayload{ID: f.repoID, Due: due.Unix()}))
	is.NoErr(f.s.tickPush(ctx, syncPayload{ID: f.pushID, Due: due.Unix()}))
	done, err = f.s.RequeueOverdue(ctx, 50)
	is.NoErr(err)
	is.Equal(done, Overdue{})
}
