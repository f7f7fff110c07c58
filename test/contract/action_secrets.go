package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

func (f *fixture) actionSecret(owner actions.SecretOwner, name, data string) *actions.Secret {
	f.t.Helper()
	s := &actions.Secret{SecretOwner: owner, Name: name, Data: data, Description: "about " + name, Created: at(50)}
	if err := f.ActionSecrets.Create(f.ctx, s); err != nil {
		f.t.Fatalf("create secret %q: %v", name, err)
	}
	if s.ID == 0 {
		f.t.Fatalf("create secret %q: id not set", name)
	}
	return s
}

func secretNames(list []*actions.Secret) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}

var actionSecretTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetListByName": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		mine := actions.AccountSecrets(owner.ID)
		repo := actions.RepoSecrets(r.ID)
		b := f.actionSecret(repo, "B", "sealed-b")
		a := f.actionSecret(repo, "A", "sealed-a")
		c := f.actionSecret(repo, "C_1", "sealed-c")
		own := f.actionSecret(mine, "A", "sealed-own")

		got, err := f.ActionSecrets.Get(f.ctx, repo, "B")
		is.NoErr(err)
		is.Equal(*got, *b)
		got, err = f.ActionSecrets.Get(f.ctx, mine, "A")
		is.NoErr(err)
		is.Equal(*got, *own) // the owner's secret is not the repository's of the same name
		_, err = f.ActionSecrets.Get(f.ctx, mine, "B")
		isCategory(is, err, errs.ErrNotFound, "secret not found")
		_, err = f.ActionSecrets.Get(f.ctx, actions.RepoSecrets(r.ID+1000), "A")
		isCategory(is, err, errs.ErrNotFound, "secret not found")

		list, total, err := f.ActionSecrets.List(f.ctx, repo, firstPage)
		is.NoErr(err)
		is.Equal(secretNames(list), []string{"A", "B", "C_1"})
		is.Equal(total, int64(3))
		is.Equal(*list[0], *a)
		list, total, err = f.ActionSecrets.List(f.ctx, repo, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(secretNames(list), []string{c.Name})
		is.Equal(total, int64(3))
		list, total, err = f.ActionSecrets.List(f.ctx, mine, firstPage)
		is.NoErr(err)
		is.Equal(secretNames(list), []string{"A"})
		is.Equal(total, int64(1))
	},
	"NamesAreUniquePerOwner": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		other := f.user("other")
		r := f.repo(owner, "repo")
		r2 := f.repo(owner, "repo2")
		f.actionSecret(actions.RepoSecrets(r.ID), "TOKEN", "x")
		f.actionSecret(actions.AccountSecrets(owner.ID), "TOKEN", "x")
		f.actionSecret(actions.AccountSecrets(other.ID), "TOKEN", "x")
		f.actionSecret(actions.RepoSecrets(r2.ID), "TOKEN", "x")
		err := f.ActionSecrets.Create(f.ctx, &actions.Secret{SecretOwner: actions.RepoSecrets(r.ID), Name: "TOKEN", Created: at(1)})
		isCategory(is, err, errs.ErrConflict, "a secret with this name already exists")
		err = f.ActionSecrets.Create(f.ctx, &actions.Secret{SecretOwner: actions.AccountSecrets(owner.ID), Name: "TOKEN", Created: at(1)})
		isCategory(is, err, errs.ErrConflict, "a secret with this name already exists")
		err = f.ActionSecrets.Create(f.ctx, &actions.Secret{SecretOwner: actions.RepoSecrets(r.ID + 1000), Name: "X", Created: at(1)})
		isCategory(is, err, errs.ErrNotFound, "the secret's owner does not exist")
	},
	"UpdateReplacesDataAndDescription": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		repo := actions.RepoSecrets(r.ID)
		s := f.actionSecret(repo, "TOKEN", "old")
		twin := f.actionSecret(actions.AccountSecrets(owner.ID), "TOKEN", "owner's")

		upd := *s
		upd.Data, upd.Description, upd.Created = "new", "", at(59)
		is.NoErr(f.ActionSecrets.Update(f.ctx, &upd))
		got, err := f.ActionSecrets.Get(f.ctx, repo, "TOKEN")
		is.NoErr(err)
		is.Equal(got.Data, "new")
		is.Equal(got.Description, "")
		is.Equal(got.Created, s.Created) // an update keeps the creation time
		got, err = f.ActionSecrets.Get(f.ctx, twin.SecretOwner, "TOKEN")
		is.NoErr(err)
		is.Equal(*got, *twin)

		// The id must be the owner's: another owner's id is not found.
		wrong := upd
		wrong.ID = twin.ID
		isCategory(is, f.ActionSecrets.Update(f.ctx, &wrong), errs.ErrNotFound, "secret not found")
	},
	"DeleteByName": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "repo")
		repo := actions.RepoSecrets(r.ID)
		f.actionSecret(repo, "TOKEN", "x")
		f.actionSecret(actions.AccountSecrets(owner.ID), "TOKEN", "x")
		is.NoErr(f.ActionSecrets.Delete(f.ctx, repo, "TOKEN"))
		_, err := f.ActionSecrets.Get(f.ctx, repo, "TOKEN")
		is.True(errors.Is(err, errs.ErrNotFound))
		isCategory(is, f.ActionSecrets.Delete(f.ctx, repo, "TOKEN"), errs.ErrNotFound, "secret not found")
		_, err = f.ActionSecrets.Get(f.ctx, actions.AccountSecrets(owner.ID), "TOKEN")
		is.NoErr(err) // the owner's secret of the same name stays
	},
	"GoWithTheirOwner": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		keep := f.user("keep")
		r := f.repo(keep, "repo")
		gone := f.repo(keep, "gone")
		o := f.orgCreate("org", keep, user.VisibilityPublic)
		f.actionSecret(actions.AccountSecrets(owner.ID), "TOKEN", "x")
		f.actionSecret(actions.AccountSecrets(keep.ID), "TOKEN", "x")
		f.actionSecret(actions.AccountSecrets(o.ID), "TOKEN", "x")
		f.actionSecret(actions.RepoSecrets(r.ID), "TOKEN", "x")
		f.actionSecret(actions.RepoSecrets(gone.ID), "TOKEN", "x")

		is.NoErr(f.Users.Delete(f.ctx, owner.ID))
		is.NoErr(f.Repos.Delete(f.ctx, gone.ID))
		is.NoErr(f.Orgs.Delete(f.ctx, o.ID))

		for _, o := range []actions.SecretOwner{actions.AccountSecrets(owner.ID), actions.RepoSecrets(gone.ID), actions.AccountSecrets(o.ID)} {
			list, total, err := f.ActionSecrets.List(f.ctx, o, firstPage)
			is.NoErr(err)
			is.Equal(len(list), 0)
			is.Equal(total, int64(0))
		}
		for _, o := range []actions.SecretOwner{actions.AccountSecrets(keep.ID), actions.RepoSecrets(r.ID)} {
			_, err := f.ActionSecrets.Get(f.ctx, o, "TOKEN")
			is.NoErr(err)
		}
	},
}
