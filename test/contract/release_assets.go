package contract

import (
	"strconv"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/release"
)

// asset stores an asset of rel named name, uploaded at minute m.
func (f *fixture) asset(rel *release.Release, uploaderID int64, name string, m int) *release.Asset {
	f.t.Helper()
	a := &release.Asset{UUID: "uuid-" + strconv.Itoa(int(rel.ID)) + "-" + name + "-" + strconv.Itoa(m), RepoID: rel.RepoID, ReleaseID: rel.ID,
		UploaderID: uploaderID, Name: name, Size: int64(len(name)), Created: at(m)}
	if err := f.ReleaseAssets.Create(f.ctx, a); err != nil {
		f.t.Fatalf("create asset %q: %v", name, err)
	}
	return a
}

func assetID(a *release.Asset) int64 { return a.ID }

var releaseAssetTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndList": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "code")
		v1, v2 := f.release(r.ID, alice.ID, "v1", 1), f.release(r.ID, alice.ID, "v2", 2)
		a := f.asset(v1, alice.ID, "a.zip", 3)
		b := f.asset(v1, alice.ID, "b.zip", 4)
		c := f.asset(v2, alice.ID, "a.zip", 5)
		dup := f.asset(v1, alice.ID, "a.zip", 6) // names may repeat; by name finds the first

		got, err := f.ReleaseAssets.Get(f.ctx, v1.ID, a.ID)
		is.NoErr(err)
		is.Equal(*got, *a)
		_, err = f.ReleaseAssets.Get(f.ctx, v2.ID, a.ID)
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist") // another release's
		got, err = f.ReleaseAssets.GetByUUID(f.ctx, c.UUID)
		is.NoErr(err)
		is.Equal(got.ID, c.ID)
		got, err = f.ReleaseAssets.GetByName(f.ctx, v1.ID, "a.zip")
		is.NoErr(err)
		is.Equal(got.ID, a.ID)
		_, err = f.ReleaseAssets.GetByName(f.ctx, v1.ID, "A.zip")
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist")

		list, err := f.ReleaseAssets.List(f.ctx, v1.ID)
		is.NoErr(err)
		is.Equal(ids(list, assetID), []int64{a.ID, b.ID, dup.ID})
		by, err := f.ReleaseAssets.OfReleases(f.ctx, []int64{v1.ID, v2.ID, 9999})
		is.NoErr(err)
		is.Equal(ids(by[v1.ID], assetID), []int64{a.ID, b.ID, dup.ID})
		is.Equal(ids(by[v2.ID], assetID), []int64{c.ID})
		none, err := f.ReleaseAssets.OfReleases(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(none), 0)

		err = f.ReleaseAssets.Create(f.ctx, &release.Asset{UUID: a.UUID, RepoID: r.ID, ReleaseID: v2.ID, Name: "x", Created: at(7)})
		isCategory(is, err, errs.ErrConflict, "attachment already exists") // the UUID is unique
		err = f.ReleaseAssets.Create(f.ctx, &release.Asset{UUID: "fresh", RepoID: r.ID, ReleaseID: 9999, Name: "x", Created: at(7)})
		is.True(err != nil) // no such release
	},
	"EditCountAndDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "code")
		v1, v2 := f.release(r.ID, alice.ID, "v1", 1), f.release(r.ID, alice.ID, "v2", 2)
		a := f.asset(v1, alice.ID, "a.zip", 3)
		a.Name = "renamed.zip"
		is.NoErr(f.ReleaseAssets.Edit(f.ctx, a))
		is.NoErr(f.ReleaseAssets.CountDownload(f.ctx, a.ID))
		is.NoErr(f.ReleaseAssets.CountDownload(f.ctx, a.ID))
		got, err := f.ReleaseAssets.Get(f.ctx, v1.ID, a.ID)
		is.NoErr(err)
		is.Equal(got.Name, "renamed.zip")
		is.Equal(got.DownloadCount, int64(2))
		stray := *a
		stray.ReleaseID = v2.ID
		isCategory(is, f.ReleaseAssets.Edit(f.ctx, &stray), errs.ErrNotFound, "attachment does not exist")

		isCategory(is, f.ReleaseAssets.Delete(f.ctx, v2.ID, a.ID), errs.ErrNotFound, "attachment does not exist")
		is.NoErr(f.ReleaseAssets.Delete(f.ctx, v1.ID, a.ID))
		_, err = f.ReleaseAssets.Get(f.ctx, v1.ID, a.ID)
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist")

		// A link's address is kept, and can change.
		link := &release.Asset{UUID: "link", RepoID: r.ID, ReleaseID: v1.ID, UploaderID: alice.ID, Name: "site",
			ExternalURL: "https://example.org/a.zip", Created: at(5)}
		is.NoErr(f.ReleaseAssets.Create(f.ctx, link))
		got, err = f.ReleaseAssets.GetByUUID(f.ctx, "link")
		is.NoErr(err)
		is.Equal(*got, *link)
		link.ExternalURL = "http://example.org/b.zip"
		is.NoErr(f.ReleaseAssets.Edit(f.ctx, link))
		got, err = f.ReleaseAssets.Get(f.ctx, v1.ID, link.ID)
		is.NoErr(err)
		is.Equal(got.ExternalURL, "http://example.org/b.zip")

		// The assets go with their release.
		b := f.asset(v2, alice.ID, "b.zip", 4)
		is.NoErr(f.Releases.Delete(f.ctx, r.ID, v2.ID))
		_, err = f.ReleaseAssets.GetByUUID(f.ctx, b.UUID)
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist")
	},
}
