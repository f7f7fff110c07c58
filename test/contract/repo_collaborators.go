package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

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
