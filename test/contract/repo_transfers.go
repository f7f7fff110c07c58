package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

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
