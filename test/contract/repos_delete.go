package contract

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

func testRepoDeleteCascades(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	parent := f.repo(owner, "parent")
	gone := f.repo(owner, "gone", func(r *repository.Repository) { r.ForkID = parent.ID })
	sibling := f.repo(owner, "sibling", func(r *repository.Repository) { r.ForkID = parent.ID })
	child := f.repo(fan, "child", func(r *repository.Repository) { r.ForkID = gone.ID })
	is.NoErr(f.Repos.RecountSocial(f.ctx, parent.ID))
	is.Equal(f.getRepo(parent.ID).NumForks, 2)

	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: gone.ID, UserID: fan.ID, Mode: permission.ModeWrite}))
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: sibling.ID, UserID: fan.ID, Mode: permission.ModeRead}))
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, gone.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, gone.ID))
	is.NoErr(f.DeployKeys.Create(f.ctx, newDeployKey(gone.ID, "ci", "SHA256:gone")))
	is.NoErr(f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: gone.ID, DoerID: owner.ID, RecipientID: fan.ID, Created: at(30)}))
	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "old-gone", gone.ID))
	is.NoErr(f.Topics.Replace(f.ctx, gone.ID, []string{"shared", "only-gone"}))
	is.NoErr(f.Topics.Replace(f.ctx, sibling.ID, []string{"shared"}))

	is.NoErr(f.Repos.Delete(f.ctx, gone.ID))

	_, err := f.Repos.GetByID(f.ctx, gone.ID)
	isCategory(is, err, errs.ErrNotFound, "repository does not exist")
	_, err = f.Collaborators.Get(f.ctx, gone.ID, fan.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	starred, err := f.Stars.IsStarred(f.ctx, fan.ID, gone.ID)
	is.NoErr(err)
	is.True(!starred)
	_, err = f.Watches.Get(f.ctx, fan.ID, gone.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	keys, total, err := f.DeployKeys.List(f.ctx, gone.ID, "", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(keys), 0)
	is.Equal(total, int64(0))
	_, err = f.Transfers.Get(f.ctx, gone.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old-gone")
	is.True(errors.Is(err, errs.ErrNotFound))

	is.Equal(f.getRepo(parent.ID).NumForks, 1)     // the parent's counter is recounted
	is.Equal(f.getRepo(child.ID).ForkID, int64(0)) // a fork of the deleted repository stands alone
	topics, _, err := f.Topics.Search(f.ctx, "", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(topicCounts(topics), map[string]int{"shared": 1}) // only-gone is no longer used

	// The rest is untouched.
	c, err := f.Collaborators.Get(f.ctx, sibling.ID, fan.ID)
	is.NoErr(err)
	is.Equal(c.Mode, permission.ModeRead)
}

func testRepoDeleteMissing(t *testing.T, f *fixture) {
	is := is.New(t)
	isCategory(is, f.Repos.Delete(f.ctx, 424242), errs.ErrNotFound, "repository does not exist")
}

func testRepoDeleteInTx(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	parent := f.repo(owner, "parent")
	fork := f.repo(owner, "fork", func(r *repository.Repository) { r.ForkID = parent.ID })
	is.NoErr(f.Repos.RecountSocial(f.ctx, parent.ID))
	is.NoErr(f.Topics.Replace(f.ctx, fork.ID, []string{"t"}))

	err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.Delete(ctx, fork.ID); err != nil {
			return err
		}
		if _, err := tx.Repos.GetByID(ctx, fork.ID); !errors.Is(err, errs.ErrNotFound) {
			return errors.New("the delete is not visible inside its transaction")
		}
		return errBoom
	})
	is.True(errors.Is(err, errBoom))
	is.Equal(f.getRepo(fork.ID).Topics, []string{"t"}) // everything came back
	is.Equal(f.getRepo(parent.ID).NumForks, 1)
	topics, _, err := f.Topics.Search(f.ctx, "t", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(topicCounts(topics), map[string]int{"t": 1})
}

func testUserOwningRepos(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	r := f.repo(owner, "repo")
	isCategory(is, f.Users.Delete(f.ctx, owner.ID), errs.ErrConflict, "user still owns repositories")
	_, err := f.Users.GetByID(f.ctx, owner.ID)
	is.NoErr(err) // nothing was deleted
	f.getRepo(r.ID)

	is.NoErr(f.Repos.Delete(f.ctx, r.ID))
	is.NoErr(f.Users.Delete(f.ctx, owner.ID)) // once the repositories are gone it may go
}

func testUserDeleteRecounts(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	stays := f.user("stays")
	a := f.repo(owner, "a")
	b := f.repo(owner, "b")
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, a.ID))
	is.NoErr(f.Stars.Star(f.ctx, stays.ID, a.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, b.ID))
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: a.ID, UserID: fan.ID, Mode: permission.ModeWrite}))
	is.Equal(f.getRepo(a.ID).NumStars, 2)
	is.Equal(f.getRepo(b.ID).NumWatches, 1)

	is.NoErr(f.Users.Delete(f.ctx, fan.ID))

	is.Equal(f.getRepo(a.ID).NumStars, 1)
	is.Equal(f.getRepo(b.ID).NumWatches, 0)
	_, err := f.Collaborators.Get(f.ctx, a.ID, fan.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // collaborations go with the user
	gazers, total, err := f.Stars.Stargazers(f.ctx, a.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(ids(gazers, userID), []int64{stays.ID})
	is.Equal(total, int64(1))
}
