package contract

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

const (
	statusSHA1 = "0123456789abcdef0123456789abcdef01234567"
	statusSHA2 = "89abcdef0123456789abcdef0123456789abcdef"
)

// status records one status on (repoID, sha), created at minute created
// (updated at minute updated), and fails the test when it cannot.
func (f *fixture) status(repoID int64, sha, context string, state commitstatus.State, created, updated int) *commitstatus.Status {
	f.t.Helper()
	s := &commitstatus.Status{
		RepoID: repoID, SHA: sha, State: state, Context: context, CreatorID: 7,
		TargetURL: "https://ci.example.com/" + context, Description: "about " + context,
		Created: at(created), Updated: at(updated),
	}
	if err := f.CommitStatuses.Create(f.ctx, s); err != nil {
		f.t.Fatalf("create status %q: %v", context, err)
	}
	if s.ID == 0 || s.Index == 0 {
		f.t.Fatalf("create status %q: id or index not set", context)
	}
	return s
}

func statusIndexes(list []*commitstatus.Status) []int64 {
	return ids(list, func(s *commitstatus.Status) int64 { return s.Index })
}

func statusPage(page, limit int) ports.ListOptions {
	return ports.ListOptions{Page: page, Limit: limit}
}

var statusTests = map[string]func(t *testing.T, f *fixture){
	"CreateRoundTripsAndCountsPerCommit": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")

		first := f.status(r.ID, statusSHA1, "ci", commitstatus.Pending, 1, 2)
		second := f.status(r.ID, statusSHA1, "lint", commitstatus.Success, 3, 4)
		otherSHA := f.status(r.ID, statusSHA2, "ci", commitstatus.Failure, 5, 5)
		otherRepo := f.status(other.ID, statusSHA1, "ci", commitstatus.Error, 6, 6)
		is.Equal([]int64{first.Index, second.Index}, []int64{1, 2}) // counted per commit
		is.Equal(otherSHA.Index, int64(1))                          // another commit counts from 1
		is.Equal(otherRepo.Index, int64(1))                         // so does another repository
		is.True(first.ID != second.ID)

		list, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{Sort: commitstatus.SortOldest, ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(len(list), 2)
		is.Equal(*list[0], commitstatus.Status{
			ID: first.ID, RepoID: r.ID, SHA: statusSHA1, Index: 1, State: commitstatus.Pending,
			TargetURL: "https://ci.example.com/ci", Description: "about ci", Context: "ci", CreatorID: 7,
			Created: at(1), Updated: at(2),
		})
		is.Equal(list[1].ID, second.ID)
	},
	"CreateManyTakesEachCommitsNextIndexesInOrder": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		f.status(r.ID, statusSHA1, "first", commitstatus.Pending, 1, 1)
		var list []*commitstatus.Status
		for i, sha := range []string{statusSHA1, statusSHA2, statusSHA1, statusSHA2, statusSHA1} {
			list = append(list, &commitstatus.Status{RepoID: r.ID, SHA: sha, State: commitstatus.Pending,
				Context: "c" + strconv.Itoa(i), CreatorID: 7, Created: at(2), Updated: at(3)})
		}
		is.NoErr(f.CommitStatuses.CreateMany(f.ctx, list))
		is.NoErr(f.CommitStatuses.CreateMany(f.ctx, nil))
		is.Equal(statusIndexes(list), []int64{2, 1, 3, 2, 4})
		got, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{Sort: commitstatus.SortOldest, ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(4))
		for _, st := range got[1:] {
			want := map[int64]*commitstatus.Status{2: list[0], 3: list[2], 4: list[4]}[st.Index]
			is.Equal(*st, *want) // the ids set match the rows stored
		}
		bad := []*commitstatus.Status{{RepoID: 4242, SHA: statusSHA1, State: commitstatus.Success, Context: "ci", Created: at(1), Updated: at(1)}}
		isCategory(is, f.CommitStatuses.CreateMany(f.ctx, bad), errs.ErrNotFound, "repository does not exist")
	},
	"CreateInMissingRepositoryIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		s := &commitstatus.Status{RepoID: 4242, SHA: statusSHA1, State: commitstatus.Success, Context: "ci", Created: at(1), Updated: at(1)}
		isCategory(is, f.CommitStatuses.Create(f.ctx, s), errs.ErrNotFound, "repository does not exist")
	},
	"ListSortsFiltersAndPages": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		// index: 1..5; created and updated minutes chosen so every order differs.
		f.status(r.ID, statusSHA1, "a", commitstatus.Pending, 10, 40)
		f.status(r.ID, statusSHA1, "b", commitstatus.Success, 30, 20)
		f.status(r.ID, statusSHA1, "a", commitstatus.Success, 20, 50)
		f.status(r.ID, statusSHA1, "c", commitstatus.Failure, 50, 10)
		f.status(r.ID, statusSHA1, "b", commitstatus.Success, 40, 30)
		f.status(r.ID, statusSHA2, "a", commitstatus.Success, 1, 1) // another commit: never listed

		cases := []struct {
			sort commitstatus.Sort
			want []int64
		}{
			{commitstatus.SortNewest, []int64{4, 5, 2, 3, 1}},
			{commitstatus.SortOldest, []int64{1, 3, 2, 5, 4}},
			{commitstatus.SortRecentUpdate, []int64{3, 1, 5, 2, 4}},
			{commitstatus.SortLeastUpdate, []int64{4, 2, 5, 1, 3}},
			{commitstatus.SortLeastIndex, []int64{5, 4, 3, 2, 1}},
			{commitstatus.SortHighestIndex, []int64{1, 2, 3, 4, 5}},
			{"bogus", []int64{4, 5, 2, 3, 1}},
		}
		for _, c := range cases {
			list, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{Sort: c.sort, ListOptions: firstPage})
			is.NoErr(err)
			is.Equal(total, int64(5))
			is.Equal(statusIndexes(list), c.want) // order of c.sort
		}

		list, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{
			State: commitstatus.Success, Sort: commitstatus.SortHighestIndex, ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(statusIndexes(list), []int64{2, 3, 5}) // state filter

		list, total, err = f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{
			Sort: commitstatus.SortHighestIndex, ListOptions: statusPage(2, 2)})
		is.NoErr(err)
		is.Equal(total, int64(5))                    // the total ignores paging
		is.Equal(statusIndexes(list), []int64{3, 4}) // second page of two

		list, total, err = f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{
			Sort: commitstatus.SortHighestIndex, ListOptions: statusPage(4, 2)})
		is.NoErr(err)
		is.Equal(total, int64(5))
		is.Equal(len(list), 0) // past the end

		list, total, err = f.CommitStatuses.List(f.ctx, r.ID, "ffffffffffffffffffffffffffffffffffffffff", ports.CommitStatusQuery{ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.Equal(len(list), 0) // a commit without statuses
	},
	"LatestPerContext": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		other := f.repo(f.user("someone"), "other")
		var all []*commitstatus.Status
		contexts := []string{"a", "b", "a", "c", "B", "b", "a", "d", "c"}
		states := []commitstatus.State{commitstatus.Pending, commitstatus.Pending, commitstatus.Success,
			commitstatus.Error, commitstatus.Success, commitstatus.Failure, commitstatus.Warning,
			commitstatus.Skipped, commitstatus.Success}
		for i, c := range contexts {
			// Created times run backwards, so the selection cannot lean on them.
			all = append(all, f.status(r.ID, statusSHA1, c, states[i], 50-i, 50-i))
		}
		f.status(r.ID, statusSHA2, "a", commitstatus.Failure, 1, 1)
		f.status(r.ID, statusSHA2, "z", commitstatus.Failure, 1, 1)
		f.status(other.ID, statusSHA1, "a", commitstatus.Failure, 1, 1)

		want := commitstatus.Latest(all)
		got, total, err := f.CommitStatuses.Latest(f.ctx, r.ID, statusSHA1, firstPage)
		is.NoErr(err)
		is.Equal(total, int64(5)) // a, b, B, c, d
		is.Equal(statusIndexes(got), statusIndexes(want))
		is.Equal(statusIndexes(got), []int64{9, 8, 7, 6, 5})
		is.Equal(got[0].State, commitstatus.Success) // c's latest
		is.Equal(got[0].Context, "c")

		page1, total, err := f.CommitStatuses.Latest(f.ctx, r.ID, statusSHA1, statusPage(1, 2))
		is.NoErr(err)
		is.Equal(total, int64(5))
		page3, _, err := f.CommitStatuses.Latest(f.ctx, r.ID, statusSHA1, statusPage(3, 2))
		is.NoErr(err)
		is.Equal(statusIndexes(page1), []int64{9, 8})
		is.Equal(statusIndexes(page3), []int64{5}) // paginated in the query

		none, total, err := f.CommitStatuses.Latest(f.ctx, r.ID, "ffffffffffffffffffffffffffffffffffffffff", firstPage)
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.Equal(len(none), 0)

		counts, err := f.CommitStatuses.LatestStates(f.ctx, r.ID, statusSHA1)
		is.NoErr(err)
		is.Equal(counts, map[commitstatus.State]int64{ // of the latest only: a warning, b failure, B success, c success, d skipped
			commitstatus.Warning: 1, commitstatus.Failure: 1, commitstatus.Success: 2, commitstatus.Skipped: 1,
		})
		counts, err = f.CommitStatuses.LatestStates(f.ctx, r.ID, "ffffffffffffffffffffffffffffffffffffffff")
		is.NoErr(err)
		is.Equal(len(counts), 0)
	},
	"DeletedWithTheRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		kept := f.repo(owner, "kept")
		f.status(r.ID, statusSHA1, "ci", commitstatus.Success, 1, 1)
		f.status(kept.ID, statusSHA1, "ci", commitstatus.Success, 1, 1)

		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		list, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.Equal(len(list), 0) // gone with the repository
		_, total, err = f.CommitStatuses.Latest(f.ctx, kept.ID, statusSHA1, firstPage)
		is.NoErr(err)
		is.Equal(total, int64(1)) // another repository's stay
	},
	"RolledBackWithTheTransaction": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		boom := errors.New("boom")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			s := &commitstatus.Status{RepoID: r.ID, SHA: statusSHA1, State: commitstatus.Success, Context: "ci", Created: at(1), Updated: at(1)}
			if err := tx.CommitStatuses.Create(ctx, s); err != nil {
				return err
			}
			return boom
		})
		is.True(errors.Is(err, boom))
		_, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(0)) // nothing kept
		s := f.status(r.ID, statusSHA1, "ci", commitstatus.Success, 1, 1)
		is.Equal(s.Index, int64(1)) // and the index was not used up
	},
	"ConcurrentCreatesGetDistinctIndexes": func(t *testing.T, f *fixture) {
		is := is.New(t)
		r := f.repo(f.user("owner"), "repo")
		const n = 12
		var wg sync.WaitGroup
		errc := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				s := &commitstatus.Status{RepoID: r.ID, SHA: statusSHA1, State: commitstatus.Pending,
					Context: "job" + strconv.Itoa(i), Created: time.Now(), Updated: time.Now()}
				errc <- f.CommitStatuses.Create(f.ctx, s)
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			is.NoErr(err)
		}
		list, total, err := f.CommitStatuses.List(f.ctx, r.ID, statusSHA1, ports.CommitStatusQuery{ListOptions: firstPage})
		is.NoErr(err)
		is.Equal(total, int64(n))
		got := statusIndexes(list)
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		want := make([]int64, n)
		for i := range want {
			want[i] = int64(i + 1)
		}
		is.Equal(got, want) // 1..n, none taken twice
	},
}
