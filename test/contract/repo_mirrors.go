package contract

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// mirrorPush adds a push mirror named name to repoID, fully populated so a
// round trip checks every column.
func (f *fixture) mirrorPush(repoID int64, name string, onCommit bool) *ports.PushMirror {
	f.t.Helper()
	m := &ports.PushMirror{
		RepoID: repoID, RemoteName: name, RemoteAddress: "https://example.com/" + name + ".git",
		Credentials: "v1:sealed-" + name, Interval: 8 * time.Hour, SyncOnCommit: onCommit,
		NextUpdate: at(10), Created: at(1),
	}
	if err := f.PushMirrors.Create(f.ctx, m); err != nil {
		f.t.Fatalf("create push mirror %q: %v", name, err)
	}
	if m.ID == 0 {
		f.t.Fatalf("create push mirror %q: id not set", name)
	}
	return m
}

func mirrorNames(list []*ports.PushMirror) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = m.RemoteName
	}
	return out
}

// mirrorTests is the contract of MirrorStore/PushMirrorStore.
var mirrorTests = map[string]func(t *testing.T, f *fixture){
	"DueListsOverdueMirrorsLongestOverdueFirst": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		late, later, future, off := f.repo(owner, "late"), f.repo(owner, "later"), f.repo(owner, "future"), f.repo(owner, "off")
		for _, m := range []*ports.Mirror{
			{RepoID: later.ID, RemoteURL: "https://example.com/b.git", Interval: time.Hour, NextUpdate: at(8)},
			{RepoID: late.ID, RemoteURL: "https://example.com/a.git", Interval: time.Hour, NextUpdate: at(5)},
			{RepoID: future.ID, RemoteURL: "https://example.com/c.git", Interval: time.Hour, NextUpdate: at(30)},
			{RepoID: off.ID, RemoteURL: "https://example.com/d.git"},
		} {
			is.NoErr(f.Mirrors.Create(f.ctx, m))
		}
		due, err := f.Mirrors.Due(f.ctx, at(10), 10)
		is.NoErr(err)
		is.Equal(len(due), 2)
		is.Equal(due[0].RepoID, late.ID)
		is.Equal(due[1].RepoID, later.ID)
		due, err = f.Mirrors.Due(f.ctx, at(10), 1)
		is.NoErr(err)
		is.Equal(len(due), 1)

		a, b := f.mirrorPush(late.ID, "remote_mirror_a", false), f.mirrorPush(late.ID, "remote_mirror_b", false)
		c := f.mirrorPush(late.ID, "remote_mirror_c", false)
		is.NoErr(f.PushMirrors.Schedule(f.ctx, c.ID, time.Time{})) // not scheduled
		is.NoErr(f.PushMirrors.Schedule(f.ctx, b.ID, at(6)))
		is.NoErr(f.PushMirrors.Schedule(f.ctx, a.ID, at(9)))
		pushes, err := f.PushMirrors.Due(f.ctx, at(10), 10)
		is.NoErr(err)
		is.Equal(mirrorNames(pushes), []string{"remote_mirror_b", "remote_mirror_a"})
		pushes, err = f.PushMirrors.Due(f.ctx, at(7), 10)
		is.NoErr(err)
		is.Equal(mirrorNames(pushes), []string{"remote_mirror_b"})
	},
	"PullMirrorRoundTrips": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "mirror")
		m := &ports.Mirror{RepoID: r.ID, RemoteURL: "https://example.com/src.git", Credentials: "v1:abc",
			Interval: 8 * time.Hour, NextUpdate: at(30)}
		is.NoErr(f.Mirrors.Create(f.ctx, m))
		got, err := f.Mirrors.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(*got, *m) // zero Updated and empty LastError come back as such

		isCategory(is, f.Mirrors.Create(f.ctx, m), errs.ErrConflict, "repository is already a mirror")
		_, err = f.Mirrors.Get(f.ctx, r.ID+1000)
		isCategory(is, err, errs.ErrNotFound, "mirror does not exist")
		isCategory(is, f.Mirrors.Create(f.ctx, &ports.Mirror{RepoID: 4242, RemoteURL: "x"}), errs.ErrNotFound,
			"repository does not exist")
	},
	"PullMirrorScheduleAndSync": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "mirror")
		is.NoErr(f.Mirrors.Create(f.ctx, &ports.Mirror{RepoID: r.ID, RemoteURL: "https://example.com/a.git",
			Interval: time.Hour, NextUpdate: at(30)}))

		is.NoErr(f.Mirrors.Schedule(f.ctx, r.ID, 10*time.Minute, at(40)))
		got, err := f.Mirrors.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(got.Interval, 10*time.Minute)
		is.True(got.NextUpdate.Equal(at(40)))

		// A failed sync keeps the last success and records the error; the
		// schedule is left alone.
		is.NoErr(f.Mirrors.RecordSync(f.ctx, r.ID, at(41), ""))
		is.NoErr(f.Mirrors.RecordSync(f.ctx, r.ID, time.Time{}, "fetch failed"))
		got, err = f.Mirrors.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.True(got.Updated.Equal(at(41)))
		is.Equal(got.LastError, "fetch failed")
		is.True(got.NextUpdate.Equal(at(40)))
		is.NoErr(f.Mirrors.RecordSync(f.ctx, r.ID, at(42), ""))
		got, err = f.Mirrors.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.True(got.Updated.Equal(at(42)))
		is.Equal(got.LastError, "")

		// Interval 0 turns scheduling off: no next update.
		is.NoErr(f.Mirrors.Schedule(f.ctx, r.ID, 0, time.Time{}))
		got, err = f.Mirrors.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(got.Interval, time.Duration(0))
		is.True(got.NextUpdate.IsZero())

		isCategory(is, f.Mirrors.Schedule(f.ctx, 4242, time.Hour, at(1)), errs.ErrNotFound, "mirror does not exist")
		isCategory(is, f.Mirrors.RecordSync(f.ctx, 4242, at(1), ""), errs.ErrNotFound, "mirror does not exist")
	},
	"PullMirrorUpdatedTimesInOneCall": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		synced, never, plain := f.repo(owner, "synced"), f.repo(owner, "never"), f.repo(owner, "plain")
		is.NoErr(f.Mirrors.Create(f.ctx, &ports.Mirror{RepoID: synced.ID, RemoteURL: "https://example.com/a.git", Updated: at(5)}))
		is.NoErr(f.Mirrors.Create(f.ctx, &ports.Mirror{RepoID: never.ID, RemoteURL: "https://example.com/b.git"}))
		is.NoErr(f.Mirrors.RecordSync(f.ctx, synced.ID, at(7), ""))

		got, err := f.Mirrors.UpdatedTimes(f.ctx, []int64{synced.ID, never.ID, plain.ID, 4242})
		is.NoErr(err)
		is.Equal(len(got), 1) // only the mirror that synced
		is.True(got[synced.ID].Equal(at(7)))

		got, err = f.Mirrors.UpdatedTimes(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(got), 0)
	},
	"PullMirrorGoesWithItsRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "mirror")
		is.NoErr(f.Mirrors.Create(f.ctx, &ports.Mirror{RepoID: r.ID, RemoteURL: "https://example.com/a.git"}))
		f.mirrorPush(r.ID, "remote_mirror_a", false)
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		_, err := f.Mirrors.Get(f.ctx, r.ID)
		isCategory(is, err, errs.ErrNotFound, "mirror does not exist")
		_, err = f.PushMirrors.Get(f.ctx, r.ID, "remote_mirror_a")
		isCategory(is, err, errs.ErrNotFound, "push mirror does not exist")
	},
	"PushMirrorRoundTripsAndNamesAreUniquePerRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r, other := f.repo(owner, "repo"), f.repo(owner, "other")
		m := f.mirrorPush(r.ID, "remote_mirror_a", true)

		got, err := f.PushMirrors.Get(f.ctx, r.ID, "remote_mirror_a")
		is.NoErr(err)
		is.Equal(*got, *m)
		byID, err := f.PushMirrors.GetByID(f.ctx, m.ID)
		is.NoErr(err)
		is.Equal(*byID, *m)

		dup := &ports.PushMirror{RepoID: r.ID, RemoteName: "remote_mirror_a", RemoteAddress: "https://x/y.git", Created: at(2)}
		isCategory(is, f.PushMirrors.Create(f.ctx, dup), errs.ErrConflict, "a push mirror with this remote name already exists")
		f.mirrorPush(other.ID, "remote_mirror_a", false) // another repository may use the name

		_, err = f.PushMirrors.Get(f.ctx, other.ID+1000, "remote_mirror_a")
		isCategory(is, err, errs.ErrNotFound, "push mirror does not exist")
		_, err = f.PushMirrors.GetByID(f.ctx, 4242)
		isCategory(is, err, errs.ErrNotFound, "push mirror does not exist")
		missing := &ports.PushMirror{RepoID: 4242, RemoteName: "x", RemoteAddress: "https://x/y.git"}
		isCategory(is, f.PushMirrors.Create(f.ctx, missing), errs.ErrNotFound, "repository does not exist")
	},
	"PushMirrorListPagesAndFilters": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r, other := f.repo(owner, "repo"), f.repo(owner, "other")
		f.mirrorPush(r.ID, "remote_mirror_c", true)
		f.mirrorPush(r.ID, "remote_mirror_a", false)
		f.mirrorPush(r.ID, "remote_mirror_b", true)
		f.mirrorPush(other.ID, "remote_mirror_z", true)

		list, total, err := f.PushMirrors.List(f.ctx, r.ID, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(mirrorNames(list), []string{"remote_mirror_c", "remote_mirror_a"}) // by id
		list, total, err = f.PushMirrors.List(f.ctx, r.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(mirrorNames(list), []string{"remote_mirror_b"})

		all, err := f.PushMirrors.ListForSync(f.ctx, r.ID, false)
		is.NoErr(err)
		is.Equal(mirrorNames(all), []string{"remote_mirror_c", "remote_mirror_a", "remote_mirror_b"})
		onCommit, err := f.PushMirrors.ListForSync(f.ctx, r.ID, true)
		is.NoErr(err)
		is.Equal(mirrorNames(onCommit), []string{"remote_mirror_c", "remote_mirror_b"})
		none, err := f.PushMirrors.ListForSync(f.ctx, 4242, false)
		is.NoErr(err)
		is.Equal(len(none), 0)
	},
	"PushMirrorRecordSyncAndDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		m := f.mirrorPush(r.ID, "remote_mirror_a", false)

		is.NoErr(f.PushMirrors.RecordSync(f.ctx, m.ID, at(20), "push refused"))
		is.NoErr(f.PushMirrors.Schedule(f.ctx, m.ID, at(25)))
		got, err := f.PushMirrors.GetByID(f.ctx, m.ID)
		is.NoErr(err)
		is.True(got.LastUpdate.Equal(at(20)))
		is.Equal(got.LastError, "push refused")
		is.True(got.NextUpdate.Equal(at(25)))
		is.NoErr(f.PushMirrors.RecordSync(f.ctx, m.ID, at(26), ""))
		is.NoErr(f.PushMirrors.Schedule(f.ctx, m.ID, time.Time{}))
		got, err = f.PushMirrors.GetByID(f.ctx, m.ID)
		is.NoErr(err)
		is.True(got.LastUpdate.Equal(at(26)))
		is.Equal(got.LastError, "")
		is.True(got.NextUpdate.IsZero())
		isCategory(is, f.PushMirrors.RecordSync(f.ctx, 4242, at(1), ""), errs.ErrNotFound, "push mirror does not exist")
		isCategory(is, f.PushMirrors.Schedule(f.ctx, 4242, at(1)), errs.ErrNotFound, "push mirror does not exist")

		isCategory(is, f.PushMirrors.Delete(f.ctx, r.ID+1000, "remote_mirror_a"), errs.ErrNotFound, "push mirror does not exist")
		is.NoErr(f.PushMirrors.Delete(f.ctx, r.ID, "remote_mirror_a"))
		isCategory(is, f.PushMirrors.Delete(f.ctx, r.ID, "remote_mirror_a"), errs.ErrNotFound, "push mirror does not exist")
	},
	"WritesJoinTransactions": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		rollback := errs.Conflict("roll back")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.Mirrors.Create(ctx, &ports.Mirror{RepoID: r.ID, RemoteURL: "https://x/y.git"}); err != nil {
				return err
			}
			if err := tx.PushMirrors.Create(ctx, &ports.PushMirror{RepoID: r.ID, RemoteName: "n", RemoteAddress: "https://x/z.git"}); err != nil {
				return err
			}
			return rollback
		})
		is.Equal(err, rollback)
		_, err = f.Mirrors.Get(f.ctx, r.ID)
		isCategory(is, err, errs.ErrNotFound, "mirror does not exist")
		_, err = f.PushMirrors.Get(f.ctx, r.ID, "n")
		isCategory(is, err, errs.ErrNotFound, "push mirror does not exist")
	},
}
