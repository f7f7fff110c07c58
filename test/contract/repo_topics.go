package contract

import (
	"strconv"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// topicsOf reads a repository's topics back.
func (f *fixture) topicsOf(repoID int64) []string {
	f.t.Helper()
	return f.getRepo(repoID).Topics
}

var topicTests = map[string]func(t *testing.T, f *fixture){
	"ReplaceWritesTheRepositoryAndCounts": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		a := f.repo(owner, "a", func(r *repository.Repository) { r.Topics = nil })
		b := f.repo(owner, "b", func(r *repository.Repository) { r.Topics = nil })

		is.NoErr(f.Topics.Replace(f.ctx, a.ID, []string{"go", "git", "hosting"}))
		is.NoErr(f.Topics.Replace(f.ctx, b.ID, []string{"go"}))
		is.Equal(f.topicsOf(a.ID), []string{"git", "go", "hosting"}) // sorted
		is.Equal(f.topicsOf(b.ID), []string{"go"})
		all, total, err := f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(topicCounts(all), map[string]int{"go": 2, "git": 1, "hosting": 1})

		is.NoErr(f.Topics.Replace(f.ctx, a.ID, []string{"hosting", "rust"}))
		is.Equal(f.topicsOf(a.ID), []string{"hosting", "rust"})
		all, total, err = f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(total, int64(3)) // git is no longer used, so no longer listed
		is.Equal(topicCounts(all), map[string]int{"go": 1, "hosting": 1, "rust": 1})

		is.NoErr(f.Topics.Replace(f.ctx, a.ID, nil))
		is.Equal(len(f.topicsOf(a.ID)), 0)
		all, _, err = f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(topicCounts(all), map[string]int{"go": 1})

		is.NoErr(f.Topics.Replace(f.ctx, a.ID, []string{"git"}))
		all, _, err = f.Topics.Search(f.ctx, "git", firstPage)
		is.NoErr(err)
		is.Equal(topicCounts(all), map[string]int{"git": 1}) // a topic used again counts again
	},
	"ReplaceNormalises": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "r")
		is.NoErr(f.Topics.Replace(f.ctx, r.ID, []string{" Go ", "go", "GIT", ""}))
		is.Equal(f.topicsOf(r.ID), []string{"git", "go"})
		all, _, err := f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(topicCounts(all), map[string]int{"git": 1, "go": 1})
	},
	"ReplaceOnMissingRepositoryIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.Topics.Replace(f.ctx, 424242, []string{"go"})
		isCategory(is, err, errs.ErrNotFound, "repository does not exist")
		all, total, err := f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(len(all), 0) // nothing was left behind
		is.Equal(total, int64(0))
	},
	"ConcurrentReplacesAreAllCounted": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		const n = 10
		repos := make([]*repository.Repository, n)
		for i := range repos {
			repos[i] = f.repo(owner, "r"+strconv.Itoa(i))
		}
		var wg sync.WaitGroup
		errc := make(chan error, n)
		for i, r := range repos {
			wg.Go(func() { errc <- f.Topics.Replace(f.ctx, r.ID, []string{"shared", "t" + strconv.Itoa(i%3)}) })
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			is.NoErr(err)
		}
		all, _, err := f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(topicCounts(all), map[string]int{"shared": n, "t0": 4, "t1": 3, "t2": 3}) // no link lost between recounts
	},
	"SearchOrderKeywordAndPages": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r1 := f.repo(owner, "r1")
		r2 := f.repo(owner, "r2")
		r3 := f.repo(owner, "r3")
		is.NoErr(f.Topics.Replace(f.ctx, r1.ID, []string{"go", "golang", "web", "x_y"}))
		is.NoErr(f.Topics.Replace(f.ctx, r2.ID, []string{"golang", "web"}))
		is.NoErr(f.Topics.Replace(f.ctx, r3.ID, []string{"web", "cli"}))

		names := func(ts []ports.TopicCount) []string {
			out := []string{}
			for _, t := range ts {
				out = append(out, t.Name)
			}
			return out
		}
		all, total, err := f.Topics.Search(f.ctx, "", firstPage)
		is.NoErr(err)
		is.Equal(names(all), []string{"web", "golang", "cli", "go", "x_y"}) // most used, then by name
		is.Equal(total, int64(5))
		is.True(all[0].ID != 0)
		is.True(!all[0].Created.IsZero())

		got, total, err := f.Topics.Search(f.ctx, "GO", firstPage)
		is.NoErr(err)
		is.Equal(names(got), []string{"golang", "go"})
		is.Equal(total, int64(2))

		got, _, err = f.Topics.Search(f.ctx, "_", firstPage)
		is.NoErr(err)
		is.Equal(names(got), []string{"x_y"}) // LIKE wildcards are literal

		got, total, err = f.Topics.Search(f.ctx, "", ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(names(got), []string{"cli", "go"})
		is.Equal(total, int64(5))
	},
}

func topicCounts(ts []ports.TopicCount) map[string]int {
	out := map[string]int{}
	for _, t := range ts {
		out[t.Name] = t.RepoCount
	}
	return out
}
