package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var watchTests = map[string]func(t *testing.T, f *fixture){
	"WatchAndUnwatchAreIdempotentAndCounted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		fan := f.user("fan")
		r := f.repo(owner, "repo")

		_, err := f.Watches.Get(f.ctx, fan.ID, r.ID)
		is.True(errors.Is(err, errs.ErrNotFound))

		is.NoErr(f.Watches.Watch(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Watches.Watch(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Watches.Watch(f.ctx, owner.ID, r.ID))
		is.Equal(f.getRepo(r.ID).NumWatches, 2)
		w, err := f.Watches.Get(f.ctx, fan.ID, r.ID)
		is.NoErr(err)
		is.Equal(w.UserID, fan.ID)
		is.Equal(w.RepoID, r.ID)
		is.Equal(w.Mode, repository.WatchNormal)
		is.True(!w.Created.IsZero())

		is.NoErr(f.Watches.Unwatch(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Watches.Unwatch(f.ctx, fan.ID, r.ID))
		is.Equal(f.getRepo(r.ID).NumWatches, 1)
		_, err = f.Watches.Get(f.ctx, fan.ID, r.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"Watchers": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		zed := f.user("zed")
		amy := f.user("amy")
		max := f.user("max")
		for _, u := range []*user.User{zed, amy, max} {
			is.NoErr(f.Watches.Watch(f.ctx, u.ID, r.ID))
		}
		is.NoErr(f.Watches.Watch(f.ctx, owner.ID, other.ID))

		got, total, err := f.Watches.Watchers(f.ctx, r.ID, firstPage)
		is.NoErr(err)
		is.Equal(ids(got, userID), []int64{zed.ID, amy.ID, max.ID})
		is.Equal(total, int64(3))
		is.Equal(*got[2], *max)

		got, total, err = f.Watches.Watchers(f.ctx, r.ID, ports.ListOptions{Page: 1, Limit: 1})
		is.NoErr(err)
		is.Equal(ids(got, userID), []int64{zed.ID})
		is.Equal(total, int64(3))
	},
	"MissingRepositoryIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		fan := f.user("fan")
		is.True(errors.Is(f.Watches.Watch(f.ctx, fan.ID, 424242), errs.ErrNotFound))
	},
}
