package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

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
