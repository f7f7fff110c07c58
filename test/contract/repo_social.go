package contract

import (
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var firstPage = ports.ListOptions{Page: 1, Limit: 50}

var collaboratorTests = map[string]func(t *testing.T, f *fixture){
	"SetGetAndChangeMode": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		u := f.user("helper")
		r := f.repo(owner, "repo")

		_, err := f.Collaborators.Get(f.ctx, r.ID, u.ID)
		isCategory(is, err, errs.ErrNotFound, "collaborator does not exist")

		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: u.ID, Mode: permission.ModeWrite}))
		got, err := f.Collaborators.Get(f.ctx, r.ID, u.ID)
		is.NoErr(err)
		is.Equal(*got, repository.Collaborator{RepoID: r.ID, UserID: u.ID, Mode: permission.ModeWrite})

		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: u.ID, Mode: permission.ModeAdmin}))
		got, err = f.Collaborators.Get(f.ctx, r.ID, u.ID)
		is.NoErr(err)
		is.Equal(got.Mode, permission.ModeAdmin) // setting again changes the mode
		list, total, err := f.Collaborators.List(f.ctx, r.ID, firstPage)
		is.NoErr(err)
		is.Equal(len(list), 1) // and adds no second row
		is.Equal(total, int64(1))
	},
	"Remove": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		u := f.user("helper")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: u.ID, Mode: permission.ModeRead}))
		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: other.ID, UserID: u.ID, Mode: permission.ModeRead}))

		is.NoErr(f.Collaborators.Remove(f.ctx, r.ID, u.ID))
		_, err := f.Collaborators.Get(f.ctx, r.ID, u.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Collaborators.Get(f.ctx, other.ID, u.ID)
		is.NoErr(err) // only that repository's
		isCategory(is, f.Collaborators.Remove(f.ctx, r.ID, u.ID), errs.ErrNotFound, "collaborator does not exist")
	},
	"ListOrderedByNameWithAccounts": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		carol := f.user("carol")
		alice := f.user("Alice")
		bob := f.user("bob")
		dave := f.user("dave")
		for _, c := range []struct {
			u    *user.User
			mode permission.AccessMode
		}{{carol, permission.ModeRead}, {alice, permission.ModeAdmin}, {bob, permission.ModeWrite}} {
			is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: c.u.ID, Mode: c.mode}))
		}
		is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: other.ID, UserID: dave.ID, Mode: permission.ModeRead}))

		list, total, err := f.Collaborators.List(f.ctx, r.ID, firstPage)
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(len(list), 3)
		is.Equal(*list[0].User, *alice) // the whole account comes along
		is.Equal(list[0].Mode, permission.ModeAdmin)
		is.Equal(list[1].User.ID, bob.ID)
		is.Equal(list[1].Mode, permission.ModeWrite)
		is.Equal(list[2].User.ID, carol.ID)
		is.Equal(list[2].Mode, permission.ModeRead)

		page, total, err := f.Collaborators.List(f.ctx, r.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(len(page), 1)
		is.Equal(page[0].User.ID, carol.ID)

		none, total, err := f.Collaborators.List(f.ctx, 424242, firstPage)
		is.NoErr(err)
		is.Equal(len(none), 0)
		is.Equal(total, int64(0))
	},
	"MissingRepositoryOrUserIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		err := f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: 424242, UserID: owner.ID, Mode: permission.ModeRead})
		is.True(errors.Is(err, errs.ErrNotFound))
		err = f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: 424242, Mode: permission.ModeRead})
		is.True(errors.Is(err, errs.ErrNotFound))
	},
}

func newDeployKey(repoID int64, title, fingerprint string) *repository.DeployKey {
	return &repository.DeployKey{
		RepoID: repoID, Title: title, Content: "ssh-ed25519 AAAAC3Nza" + title, Fingerprint: fingerprint,
		ReadOnly: true, Created: at(40),
	}
}

func (f *fixture) deployKey(repoID int64, title, fingerprint string, edit ...func(k *repository.DeployKey)) *repository.DeployKey {
	f.t.Helper()
	k := newDeployKey(repoID, title, fingerprint)
	for _, e := range edit {
		e(k)
	}
	if err := f.DeployKeys.Create(f.ctx, k); err != nil {
		f.t.Fatalf("create deploy key %q: %v", title, err)
	}
	if k.ID == 0 {
		f.t.Fatalf("create deploy key %q: id not set", title)
	}
	return k
}

func deployKeyID(k *repository.DeployKey) int64 { return k.ID }

var deployKeyTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndList": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		k1 := f.deployKey(r.ID, "ci", "SHA256:one")
		k2 := f.deployKey(r.ID, "deploy", "SHA256:two", func(k *repository.DeployKey) { k.ReadOnly = false })
		k3 := f.deployKey(r.ID, "backup", "SHA256:three")
		f.deployKey(other.ID, "ci", "SHA256:one") // title and fingerprint are unique per repository only

		got, err := f.DeployKeys.Get(f.ctx, r.ID, k2.ID)
		is.NoErr(err)
		is.Equal(*got, *k2)
		_, err = f.DeployKeys.Get(f.ctx, other.ID, k2.ID)
		isCategory(is, err, errs.ErrNotFound, "deploy key does not exist") // another repository's key

		list, total, err := f.DeployKeys.List(f.ctx, r.ID, "", firstPage)
		is.NoErr(err)
		is.Equal(ids(list, deployKeyID), []int64{k1.ID, k2.ID, k3.ID})
		is.Equal(total, int64(3))
		is.Equal(*list[0], *k1)

		list, total, err = f.DeployKeys.List(f.ctx, r.ID, "", ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, deployKeyID), []int64{k3.ID})
		is.Equal(total, int64(3))

		list, total, err = f.DeployKeys.List(f.ctx, r.ID, "SHA256:two", firstPage)
		is.NoErr(err)
		is.Equal(ids(list, deployKeyID), []int64{k2.ID})
		is.Equal(total, int64(1))
	},
	"TitleAndFingerprintAreUniquePerRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		f.deployKey(r.ID, "ci", "SHA256:one")
		err := f.DeployKeys.Create(f.ctx, newDeployKey(r.ID, "ci", "SHA256:other"))
		isCategory(is, err, errs.ErrConflict, "a deploy key with this title already exists")
		err = f.DeployKeys.Create(f.ctx, newDeployKey(r.ID, "another", "SHA256:one"))
		isCategory(is, err, errs.ErrConflict, "deploy key already exists")
	},
	"DeleteAndMissing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		k := f.deployKey(r.ID, "ci", "SHA256:one")
		isCategory(is, f.DeployKeys.Delete(f.ctx, other.ID, k.ID), errs.ErrNotFound, "deploy key does not exist")
		is.NoErr(f.DeployKeys.Delete(f.ctx, r.ID, k.ID))
		_, err := f.DeployKeys.Get(f.ctx, r.ID, k.ID)
		isCategory(is, err, errs.ErrNotFound, "deploy key does not exist")
		isCategory(is, f.DeployKeys.Delete(f.ctx, r.ID, k.ID), errs.ErrNotFound, "deploy key does not exist")
		f.deployKey(r.ID, "ci", "SHA256:one") // a deleted key's title and fingerprint are free again

		err = f.DeployKeys.Create(f.ctx, newDeployKey(424242, "ci", "SHA256:x"))
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"ByFingerprint": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		other := f.repo(owner, "other")
		k := f.deployKey(r.ID, "ci", "SHA256:one", func(k *repository.DeployKey) { k.ReadOnly = false })
		k2 := f.deployKey(other.ID, "ci", "SHA256:one") // the same key on another repository

		got, err := f.DeployKeys.GetByFingerprint(f.ctx, r.ID, "SHA256:one")
		is.NoErr(err)
		is.Equal(*got, *k)
		got, err = f.DeployKeys.GetByFingerprint(f.ctx, other.ID, "SHA256:one")
		is.NoErr(err)
		is.Equal(*got, *k2) // each repository's own row, with its own access
		_, err = f.DeployKeys.GetByFingerprint(f.ctx, r.ID, "SHA256:two")
		isCategory(is, err, errs.ErrNotFound, "deploy key does not exist")
		third := f.repo(owner, "third")
		_, err = f.DeployKeys.GetByFingerprint(f.ctx, third.ID, "SHA256:one")
		isCategory(is, err, errs.ErrNotFound, "deploy key does not exist") // not this repository's key

		used, err := f.DeployKeys.FingerprintInUse(f.ctx, "SHA256:one")
		is.NoErr(err)
		is.True(used)
		used, err = f.DeployKeys.FingerprintInUse(f.ctx, "SHA256:two")
		is.NoErr(err)
		is.True(!used)
		is.NoErr(f.DeployKeys.Delete(f.ctx, r.ID, k.ID))
		is.NoErr(f.DeployKeys.Delete(f.ctx, other.ID, k2.ID))
		used, err = f.DeployKeys.FingerprintInUse(f.ctx, "SHA256:one")
		is.NoErr(err)
		is.True(!used) // gone with the last key
	},
}

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

var transferTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetReplaceDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		first := f.user("first")
		second := f.user("second")
		r := f.repo(owner, "repo")

		_, err := f.Transfers.Get(f.ctx, r.ID)
		isCategory(is, err, errs.ErrNotFound, "no pending transfer")

		offer := &repository.Transfer{RepoID: r.ID, DoerID: owner.ID, RecipientID: first.ID, Created: at(30)}
		is.NoErr(f.Transfers.Create(f.ctx, offer))
		got, err := f.Transfers.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(*got, *offer)

		again := &repository.Transfer{RepoID: r.ID, DoerID: owner.ID, RecipientID: second.ID, Created: at(31)}
		is.NoErr(f.Transfers.Create(f.ctx, again))
		got, err = f.Transfers.Get(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(*got, *again) // the later offer replaces the earlier

		is.NoErr(f.Transfers.Delete(f.ctx, r.ID))
		_, err = f.Transfers.Get(f.ctx, r.ID)
		isCategory(is, err, errs.ErrNotFound, "no pending transfer")
		isCategory(is, f.Transfers.Delete(f.ctx, r.ID), errs.ErrNotFound, "no pending transfer")
	},
	"GoesWithTheRecipient": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		recipient := f.user("recipient")
		r := f.repo(owner, "repo")
		is.NoErr(f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: r.ID, DoerID: owner.ID, RecipientID: recipient.ID, Created: at(30)}))
		is.NoErr(f.Users.Delete(f.ctx, recipient.ID))
		_, err := f.Transfers.Get(f.ctx, r.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"MissingRepositoryOrUserIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		err := f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: 424242, DoerID: owner.ID, RecipientID: owner.ID})
		is.True(errors.Is(err, errs.ErrNotFound))
		err = f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: r.ID, DoerID: owner.ID, RecipientID: 424242})
		is.True(errors.Is(err, errs.ErrNotFound))
	},
}
