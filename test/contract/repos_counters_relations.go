package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
)

func testRepoCountByOwner(t *testing.T, f *fixture) {
	is := is.New(t)
	a := f.user("a")
	b := f.user("b")
	f.repo(a, "one")
	f.repo(a, "two", private)
	f.repo(b, "three")
	for _, tc := range []struct {
		owner int64
		want  int64
	}{{a.ID, 2}, {b.ID, 1}, {424242, 0}} {
		n, err := f.Repos.CountByOwner(f.ctx, tc.owner)
		is.NoErr(err)
		is.Equal(n, tc.want)
	}
}

func testRepoNamesByOwners(t *testing.T, f *fixture) {
	is := is.New(t)
	a := f.user("a")
	b := f.user("b")
	c := f.user("c")
	f.repo(a, "Two")
	f.repo(a, "one", private)
	f.repo(b, "three")
	f.repo(c, "elsewhere")
	got, err := f.Repos.NamesByOwners(f.ctx, []int64{a.ID, b.ID, 424242})
	is.NoErr(err)
	is.Equal(got, map[int64][]string{a.ID: {"one", "two"}, b.ID: {"three"}})
	got, err = f.Repos.NamesByOwners(f.ctx, nil)
	is.NoErr(err)
	is.Equal(len(got), 0)
}

func testRepoRelations(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	collab := f.user("collab")
	stranger := f.user("stranger")
	r := f.repo(owner, "repo")
	other := f.repo(owner, "other")
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: collab.ID, Mode: permission.ModeAdmin}))

	cases := []struct {
		name string
		repo *repository.Repository
		user int64
		want permission.Relations
	}{
		{"owner", r, owner.ID, permission.Relations{IsOwner: true}},
		{"collaborator", r, collab.ID, permission.Relations{CollaboratorMode: permission.ModeAdmin}},
		{"collaborator elsewhere", other, collab.ID, permission.Relations{}},
		{"stranger", r, stranger.ID, permission.Relations{}},
		{"anonymous", r, 0, permission.Relations{}},
	}
	for _, tc := range cases {
		got, err := f.Repos.Relations(f.ctx, tc.repo.Facts(), tc.user)
		is.NoErr(err)
		is.Equal(got, tc.want) // tc.name
		pair := other
		if tc.repo.ID == other.ID {
			pair = r
		}
		many, err := f.Repos.RelationsMany(f.ctx, []permission.Repo{tc.repo.Facts(), pair.Facts()}, tc.user)
		is.NoErr(err)
		is.Equal(len(many), 2)
		is.Equal(many[tc.repo.ID], tc.want) // RelationsMany agrees with Relations
	}
	none, err := f.Repos.RelationsMany(f.ctx, nil, collab.ID)
	is.NoErr(err)
	is.Equal(len(none), 0)
}

func testRepoRecountAndSize(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	r := f.repo(owner, "repo")
	f.repo(fan, "fork1", func(x *repository.Repository) { x.ForkID = r.ID })
	f.repo(owner, "fork2", func(x *repository.Repository) { x.ForkID = r.ID })
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, r.ID))
	is.NoErr(f.Watches.Watch(f.ctx, owner.ID, r.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, r.ID))
	is.Equal(f.getRepo(r.ID).NumForks, 0) // creating a fork leaves the parent's counter to the caller

	is.NoErr(f.Repos.RecountSocial(f.ctx, r.ID))
	got := f.getRepo(r.ID)
	is.Equal([]int{got.NumStars, got.NumWatches, got.NumForks}, []int{1, 2, 2})
	isCategory(is, f.Repos.RecountSocial(f.ctx, 424242), errs.ErrNotFound, "repository does not exist")

	is.NoErr(f.Repos.SetSize(f.ctx, r.ID, 1<<40))
	is.Equal(f.getRepo(r.ID).Size, int64(1<<40)) // sizes beyond 32 bits
	isCategory(is, f.Repos.SetSize(f.ctx, 424242, 1), errs.ErrNotFound, "repository does not exist")
}

func testRepoRedirects(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	other := f.user("other")
	first := f.repo(owner, "first")
	second := f.repo(owner, "second")

	_, err := f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound))

	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "Old", first.ID))
	id, err := f.Repos.LookupRedirect(f.ctx, owner.ID, "OLD")
	is.NoErr(err)
	is.Equal(id, first.ID) // case-insensitive both ways
	_, err = f.Repos.LookupRedirect(f.ctx, other.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound)) // per owner

	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "old", second.ID))
	id, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.NoErr(err)
	is.Equal(id, second.ID) // the latest rename wins

	is.NoErr(f.Repos.DeleteRedirect(f.ctx, owner.ID, "oLd"))
	_, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.NoErr(f.Repos.DeleteRedirect(f.ctx, owner.ID, "old")) // forgetting an absent name is fine

	err = f.Repos.AddRedirect(f.ctx, owner.ID, "dangling", 424242)
	is.True(errors.Is(err, errs.ErrNotFound)) // a redirect to no repository is refused
}
