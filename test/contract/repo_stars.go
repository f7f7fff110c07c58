package contract

import (
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var starTests = map[string]func(t *testing.T, f *fixture){
	"StarAndUnstarAreIdempotentAndCounted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		fan := f.user("fan")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")

		is.NoErr(f.Stars.Star(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Stars.Star(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Stars.Star(f.ctx, owner.ID, r.ID))
		is.Equal(f.getRepo(r.ID).NumStars, 2)
		is.Equal(f.getRepo(other.ID).NumStars, 0)
		ok, err := f.Stars.IsStarred(f.ctx, fan.ID, r.ID)
		is.NoErr(err)
		is.True(ok)
		ok, err = f.Stars.IsStarred(f.ctx, fan.ID, other.ID)
		is.NoErr(err)
		is.True(!ok)

		is.NoErr(f.Stars.Unstar(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Stars.Unstar(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Stars.Unstar(f.ctx, fan.ID, other.ID)) // never starred
		is.Equal(f.getRepo(r.ID).NumStars, 1)
		ok, err = f.Stars.IsStarred(f.ctx, fan.ID, r.ID)
		is.NoErr(err)
		is.True(!ok)
	},
	"Stargazers": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		zed := f.user("zed")
		amy := f.user("amy")
		max := f.user("max")
		for _, u := range []*user.User{zed, amy, max} {
			is.NoErr(f.Stars.Star(f.ctx, u.ID, r.ID))
		}
		got, total, err := f.Stars.Stargazers(f.ctx, r.ID, firstPage)
		is.NoErr(err)
		is.Equal(ids(got, userID), []int64{zed.ID, amy.ID, max.ID}) // in the order they starred
		is.Equal(total, int64(3))
		is.Equal(got[1].NumStars, 1) // the star store counts each user's stars
		amy.NumStars = 1
		is.Equal(*got[1], *amy)

		got, total, err = f.Stars.Stargazers(f.ctx, r.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(got, userID), []int64{max.ID})
		is.Equal(total, int64(3))
	},
	"MissingRepositoryIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		fan := f.user("fan")
		is.True(errors.Is(f.Stars.Star(f.ctx, fan.ID, 424242), errs.ErrNotFound))
	},
	"ConcurrentStarsAreAllCounted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "popular")
		const fans = 12
		users := make([]*user.User, fans)
		for i := range users {
			users[i] = f.user("fan" + strconv.Itoa(i))
		}
		var wg sync.WaitGroup
		errc := make(chan error, 2*fans)
		for _, u := range users {
			wg.Go(func() {
				errc <- f.Stars.Star(f.ctx, u.ID, r.ID)
				errc <- f.Watches.Watch(f.ctx, u.ID, r.ID)
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			is.NoErr(err)
		}
		got := f.getRepo(r.ID)
		is.Equal(got.NumStars, fans) // no star lost between concurrent recounts
		is.Equal(got.NumWatches, fans)
	},
}
